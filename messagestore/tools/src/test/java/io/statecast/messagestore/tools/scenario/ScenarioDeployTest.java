package io.statecast.messagestore.tools.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Specs;
import org.junit.jupiter.api.Test;

/** The {@code deploy: true} step: the node's own instance of a {@code <Start>} spec, and its misuse. */
class ScenarioDeployTest {

    private static final ServiceSpec TICKER = Specs.load("specs/deploy-ticker.scxml");
    private static final ServiceSpec ACK = Specs.load("specs/ack-service.scxml");

    private static ScenarioResult run(ServiceSpec spec, String yaml) throws ScenarioException {
        return new ScenarioRunner().run(spec, ScenarioReader.read(yaml, false, "s.yaml", spec, ScenarioLimits.DEFAULTS));
    }

    @Test
    void shouldStartTheNodesOwnInstance() throws Exception {
        ScenarioResult r = run(TICKER, """
                scenario: deployed
                node: {address: 4}
                steps:
                  - deploy: true
                    expect: [{setTimer: {timer: tick, delay: 100}}]
                    state: ticking
                  - advance: 100ms
                    expect:
                      - sendControlMessage: {type: 5, mode: flood, hopLimit: 1}
                      - setTimer: {timer: tick}
                """);
        assertTrue(r.passed(), r.toString());
    }

    @Test
    void shouldFailADeployAfterTheInstanceExists() throws Exception {
        ScenarioResult r = run(TICKER, """
                scenario: a beat first, then deploy
                node: {address: 4}
                steps:
                  - receive: {type: 5, source: 2, mode: flood}
                    state: listening
                  - deploy: true
                """);
        assertFalse(r.passed(), r.toString());
        assertTrue(r.steps().get(1).failures().get(0).contains("an instance exists already"), r.toString());
    }

    @Test
    void shouldRefuseDeployForASpecWithoutStartAndAnythingButTrue() {
        String noStart = assertThrows(ScenarioException.class, () -> ScenarioReader.read("""
                scenario: x
                steps:
                  - deploy: true
                """, false, "s.yaml", ACK, ScenarioLimits.DEFAULTS)).getMessage();
        assertTrue(noStart.contains("s.yaml:3") && noStart.contains("has no <Start>"), noStart);
        String notTrue = assertThrows(ScenarioException.class, () -> ScenarioReader.read("""
                scenario: x
                steps:
                  - deploy: yes please
                """, false, "s.yaml", TICKER, ScenarioLimits.DEFAULTS)).getMessage();
        assertEquals(true, notTrue.contains("write deploy: true"), notTrue);
    }
}
