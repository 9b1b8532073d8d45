package io.statecast.messagestore.cli;

import static io.statecast.messagestore.cli.CommandRun.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spec test}: a line per step, the summary, and exit status 0 / 1 / 2. */
class SpecTestCommandTest {

    private static final String SPEC = "../runtime/src/test/resources/specs/ack-service.scxml";

    @Test
    void shouldPassEveryScenarioOfADirectory() {
        CommandRun r = spec("test", SPEC, "../runtime/src/test/resources/scenarios/ack-service");
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("  ok    step 2 (line 11) advance 250ms -> t=250ms\n"), r.out());
        assertTrue(r.out().endsWith("2 scenarios: 2 passed, 0 failed\n"), r.out());
    }

    @Test
    void shouldExitOneWhenAScenarioFailsOrIsInvalid(@TempDir Path dir) throws Exception {
        Path wrong = Files.writeString(dir.resolve("wrong.yaml"), """
                scenario: expects an ACK to the wrong node
                steps:
                  - receive: {source: 1, destination: 3, previousHop: 2}
                    expect: [sendControlMessage: {destination: 1}, toApplication, setTimer]
                """);
        CommandRun r = spec("test", SPEC, wrong.toString());
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("    - sendControlMessage(destination=1)   (expected, line 4)\n"), r.out());
        assertTrue(r.out().contains("FAIL 1 of 1 step failed\n"), r.out());
        Path invalid = Files.writeString(dir.resolve("invalid.yaml"), "scenario: x\nsteps:\n  - wait: 5\n");
        CommandRun i = spec("test", SPEC, invalid.toString());
        assertEquals(2, i.exit(), i.out());
        assertTrue(i.out().contains("invalid.yaml:3:5: steps[0].wait: unknown field"), i.out());
        assertEquals(2, spec("test", "/nonexistent.scxml", wrong.toString()).exit());
    }

    @Test
    void shouldExitTwoOnUsageErrors() {
        assertEquals(2, spec("test", SPEC).exit());
        assertEquals(2, spec("test", "--bogus", SPEC, "x.yaml").exit());
    }
}
