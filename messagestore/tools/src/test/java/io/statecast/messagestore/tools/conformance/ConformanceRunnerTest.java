package io.statecast.messagestore.tools.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The W3C SCXML 1.0 conformance tests in the steering repository's shared/ folder. */
class ConformanceRunnerTest {

    /** The XPath versions of the tests, beside the repository (CI lays shared/ next to the clone). */
    static final Path SUITE = Path.of("..", "..", "..", "shared", "scxml-irp", "xpath");

    @Test
    void shouldPassEveryApplicableW3cTestAndGiveEachExclusionAReason() throws Exception {
        assertTrue(Files.isDirectory(SUITE), "the W3C tests are expected at " + SUITE.toAbsolutePath());
        List<TestOutcome> outcomes = new ConformanceRunner().runAll(SUITE);
        List<TestOutcome> failed = outcomes.stream().filter(o -> o.result() == TestOutcome.Result.FAILED).toList();
        assertEquals(List.of(), failed);
        Map<TestOutcome.Result, Long> n = ConformanceRunner.counts(outcomes);
        assertTrue(n.get(TestOutcome.Result.PASSED) >= 153, n.toString());
        for (TestOutcome o : outcomes) {
            if (o.result() == TestOutcome.Result.EXCLUDED) {
                assertTrue(o.reason().startsWith("needs ") || o.reason().startsWith("manual:"), o.toString());
            }
        }
    }
}
