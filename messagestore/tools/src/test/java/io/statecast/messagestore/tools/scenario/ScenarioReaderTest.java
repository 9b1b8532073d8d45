package io.statecast.messagestore.tools.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Specs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scenario files are read strictly: every mistake names its field and line. */
class ScenarioReaderTest {

    private static final ServiceSpec ACK = Specs.load("specs/ack-service.scxml");
    private static final ScenarioLimits SMALL = new ScenarioLimits(4096, 200, 3, 1000, 60_000);

    private static Scenario yaml(String text) throws ScenarioException {
        return ScenarioReader.read(text, false, "s.yaml", ACK, ScenarioLimits.DEFAULTS);
    }

    private static String error(String text) {
        return assertThrows(ScenarioException.class, () -> yaml(text)).getMessage();
    }

    private static String jsonError(String text) {
        return assertThrows(ScenarioException.class,
                () -> ScenarioReader.read(text, true, "s.json", ACK, ScenarioLimits.DEFAULTS)).getMessage();
    }

    @Test
    void shouldReadEveryPartOfAScenario() throws Exception {
        Scenario s = yaml("""
                scenario: all parts
                node: {address: 3, parent: 1, children: [4], neighbours: [1, 4, 6], trees: {"9": {parent: 4}}}
                parameters: {Retry: 1.5s, Linger: 2m}
                defaults: {id: 7, source: 1}
                ignore: updateNodeInfo
                steps:
                  - note: first
                    receive: [{payload: a, destination: local}, {type: 0x02, previousHop: 2, hopLimit: 3}]
                    expect:
                      - terminate
                      - sendControlMessage: {type: 2, destination: local, at: 1s}
                    state: [idle]
                    terminated: false
                    timers: [retry, 2]
                  - advance: 250
                  - fire: linger
                  - topology: {parent: 6}
                  - state: done
                """);
        assertEquals("all parts", s.name());
        assertEquals("1500", s.parameters().get("Retry"));
        assertEquals("120000", s.parameters().get("Linger"));
        assertEquals(5, s.steps().size());
        Step first = s.steps().get(0);
        assertEquals(7, first.line());
        Step.Receive r = assertInstanceOf(Step.Receive.class, first.input());
        assertEquals(2, r.messages().size());
        assertEquals(7L, r.messages().get(1).messageId(), "defaults apply");
        assertEquals("3", io.statecast.messagestore.event.AttributeValues.text(r.messages().get(0).destination()),
                "local is the node's address");
        assertEquals(List.of("retry", "linger"), first.timers());
        assertEquals("sendControlMessage(type=2, destination=3, at=1000)", first.calls().get(1).toString());
        assertEquals(new Step.Advance(250), s.steps().get(1).input());
        assertEquals(new Step.Fire(2, "linger"), s.steps().get(2).input());
        assertInstanceOf(Step.Topology.class, s.steps().get(3).input());
        assertInstanceOf(Step.Check.class, s.steps().get(4).input());
    }

    @Test
    void shouldNameTheFieldAndLineOfEveryMistake() {
        String head = "scenario: x\nsteps:\n";
        assertEquals("s.yaml:3:26: steps[0].receive.tpye: unknown field (known: type, id, source, destination, "
                + "previousHop, root, mode, hopLimit, payload, payloadBase64, serviceId, fields)",
                error(head + "  - receive: {source: 1, tpye: 2}"));
        assertTrue(error(head + "  - expect: [sendMessage]").startsWith(
                "s.yaml:3:14: steps[0].expect[0]: unknown primitive 'sendMessage' (known: sendDataMessage,"), "primitive");
        assertEquals("s.yaml:3:25: steps[0].expect[0].setTimer.delay: a duration is whole milliseconds or a number "
                + "with ms, s, m or h, got 'soon'", error(head + "  - expect: [setTimer: {delay: soon}]"));
        assertTrue(error(head + "  - state: waitng").startsWith(
                "s.yaml:3:5: steps[0].state: the spec has no state 'waitng' (states: done, end, idle, waiting)"));
        assertTrue(error(head + "  - fire: retyr").contains("steps[0].fire: 'retyr' is neither a timer number nor a "
                + "timer event of the spec (timer events: retry, linger)"));
        assertTrue(error("scenario: x\nparameters: {Retrie: 5}\nsteps: [{}]").startsWith(
                "s.yaml:2:14: parameters.Retrie: the spec declares no parameter Retrie (declared: Retry, Linger)"));
        assertTrue(error(head + "  - advance: 5\n    fire: retry").contains(
                "steps[0].fire: a step has one input: advance or fire, not both"));
        assertTrue(error(head + "  - receive: {id: 3}").contains("steps[0].receive: a message needs a source"));
        assertTrue(error(head + "  - receive: {source: 1, mode: unicast}").contains(
                "steps[0].receive: a unicast message needs a destination"));
        assertTrue(error(head + "  - receive: {source: 1, type: 300}").contains(
                "steps[0].receive.type: a message type is one byte (-128..255 or 0x00..0xff), got 300 or 'data'"));
        assertTrue(error(head + "  - receive: {source: 1, mode: 3}").contains("numeric codes are refused"));
        assertTrue(error(head + "  - receive: {source: a.b}").contains(
                "steps[0].receive.source: a logical address is 'x,y' (Delaunay) or a whole number (tree), got 'a.b'"));
        assertTrue(error(head + "  - terminated: yes").contains("steps[0].terminated: expected true or false, got 'yes'"));
        assertTrue(error(head + "  - expect: [{terminate: {}, setTimer: {}}]").contains("an expected call is a "
                + "primitive name, or one primitive name mapped to its parameters"));
        assertTrue(error(head + "  - ignore: [setTimer]\n    expect: [setTimer]").contains("expects setTimer but ignores it"));
        assertTrue(error("steps: [{}]").startsWith("s.yaml:1:1: missing required field 'scenario'"));
        assertTrue(error("scenario: x\nsteps: []").contains("steps: a scenario needs at least one step"));
        assertTrue(error("scenario: x\nscenario: y\nsteps: [{}]").contains("uplicate"), "duplicate keys");
        assertTrue(error("scenario: [x\nsteps: [{}]").startsWith("s.yaml"), "syntax error");
        assertTrue(error("").contains("empty"));
        assertTrue(jsonError("{\"scenario\": \"x\",\n \"steps\": [{\"advance\": 1}],\n \"nodes\": 1}")
                .startsWith("s.json:3:2: nodes: unknown field"));
        assertEquals("s.json:1:29: not well-formed JSON: Unexpected close marker '}': expected ']'",
                jsonError("{\"scenario\": \"x\", \"steps\": [}"));
    }

    @Test
    void shouldBoundTheDocument() {
        String many = "scenario: x\nsteps:\n" + "  - advance: 1\n".repeat(4);
        assertTrue(assertThrows(ScenarioException.class, () -> ScenarioReader.read(many, false, "s.yaml", ACK, SMALL))
                .getMessage().contains("more than 3 steps"));
        String big = "scenario: " + "x".repeat(5000) + "\nsteps: [{}]";
        assertTrue(assertThrows(ScenarioException.class, () -> ScenarioReader.read(big, false, "s.yaml", ACK, SMALL))
                .getMessage().contains("larger than 4096"));
        String wide = "scenario: x\nsteps: [" + "{},".repeat(300) + "{}]";
        assertTrue(assertThrows(ScenarioException.class, () -> ScenarioReader.read(wide, false, "s.yaml", ACK,
                new ScenarioLimits(4096, 200, 1000, 1000, 60_000))).getMessage().contains("more than 200 values"));
        String deep = "scenario: x\nsteps: " + "[".repeat(40) + "]".repeat(40);
        assertTrue(assertThrows(ScenarioException.class, () -> yaml(deep)).getMessage().startsWith("s.yaml"));
        String bomb = "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
                + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\nscenario: x\nsteps: [{}]";
        assertThrows(ScenarioException.class, () -> yaml(bomb));
        assertTrue(error("scenario: x\nsteps:\n  - advance: 2d").contains("a duration is"));
        assertTrue(error("scenario: x\nsteps:\n  - advance: 25h").contains("advances more than 86400000 ms"));
    }

    @Test
    void shouldRefuseFilesThatAreNotScenarios(@TempDir Path dir) throws Exception {
        Path txt = Files.writeString(dir.resolve("s.txt"), "scenario: x");
        assertTrue(assertThrows(ScenarioException.class, () -> ScenarioReader.read(txt, ACK)).getMessage()
                .endsWith("scenario files end in .yaml, .yml or .json"));
        Path latin1 = Files.write(dir.resolve("s.yaml"), "scenario: caf\u00e9\nsteps: [{}]".getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(assertThrows(ScenarioException.class, () -> ScenarioReader.read(latin1, ACK)).getMessage()
                .endsWith("not UTF-8"));
        Path missing = dir.resolve("none.yaml");
        assertTrue(assertThrows(ScenarioException.class, () -> ScenarioReader.read(missing, ACK)).getMessage()
                .contains("cannot read"));
    }
}
