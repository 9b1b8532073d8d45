package io.statecast.messagestore.tools.scenario.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.tools.scenario.ScenarioResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** The JUnit helper fails a test with the report, and only then. */
class SpecScenariosTest {

    private static final Path SPEC = Path.of("../runtime/src/test/resources/specs/ack-service.scxml");

    @Test
    void shouldFailWithTheReportWhenAScenarioFails(@TempDir Path dir) throws Throwable {
        Files.writeString(dir.resolve("a-good.yaml"), "scenario: good\nsteps:\n  - receive: {source: 2, destination: 3}\n"
                + "    state: done\n");
        Files.writeString(dir.resolve("b-bad.yaml"), "scenario: bad\nsteps:\n  - receive: {source: 2, destination: 3}\n"
                + "    state: waiting\n");
        Files.writeString(dir.resolve("c-invalid.yaml"), "scenario: invalid\nstep: []\n");
        Files.writeString(dir.resolve("notes.txt"), "not a scenario");
        List<DynamicNode> tests = SpecScenarios.of(SPEC, dir).toList();
        assertEquals(List.of("a-good.yaml", "b-bad.yaml", "c-invalid.yaml"),
                tests.stream().map(DynamicNode::getDisplayName).toList());
        ((DynamicTest) tests.get(0)).getExecutable().execute();
        AssertionFailedError bad = assertThrows(AssertionFailedError.class,
                () -> ((DynamicTest) tests.get(1)).getExecutable().execute());
        assertTrue(bad.getMessage().contains("state: expected [waiting], actual [done]"), bad.getMessage());
        AssertionFailedError invalid = assertThrows(AssertionFailedError.class,
                () -> ((DynamicTest) tests.get(2)).getExecutable().execute());
        assertTrue(invalid.getMessage().contains("c-invalid.yaml:2:1: step: unknown field"), invalid.getMessage());

        ScenarioResult r = SpecScenarios.assertPasses(SPEC, dir.resolve("a-good.yaml"));
        assertEquals(1, r.calls("toApplication").size());
    }

    @Test
    void shouldGroupByDirectoryAndFailWithoutASpec(@TempDir Path dir) throws Throwable {
        Files.createDirectories(dir.resolve("scenarios/ack-service"));
        Files.createDirectories(dir.resolve("scenarios/no-such-spec"));
        Files.writeString(dir.resolve("scenarios/ack-service/s.yaml"), "scenario: s\nsteps:\n  - state: []\n");
        List<DynamicNode> nodes = SpecScenarios.byDirectory(SPEC.getParent(), dir.resolve("scenarios")).toList();
        DynamicContainer ack = assertInstanceOf(DynamicContainer.class, nodes.get(0));
        assertEquals("ack-service", ack.getDisplayName());
        ((DynamicTest) ack.getChildren().findFirst().orElseThrow()).getExecutable().execute();
        DynamicTest missing = assertInstanceOf(DynamicTest.class, nodes.get(1));
        assertThrows(AssertionFailedError.class, () -> missing.getExecutable().execute());
    }
}
