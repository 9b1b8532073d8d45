package io.statecast.it.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The full experiments (the {@code -Ptestbed} profile only): {@link TestbedRunner} with the
 * arguments in the system property {@code statecast.testbed.args} (default: the blueprint's set,
 * best-effort), node processes started from the test class path.
 */
@Tag("testbed")
class TestbedExperimentsTest {

    @Test
    void blueprintExperimentsShouldRunToTheEndAndWriteResults() {
        String why = TestbedEnvironment.unavailableReason();
        assertEquals(null, why, "the testbed profile needs root and iproute2");
        Path results = TestbedEnvironment.repository().resolve("it/target/testbed/results.md");
        String extra = System.getProperty("statecast.testbed.args", "").trim();
        String[] args = (extra + " --launcher classpath --results " + results).trim().split("\\s+");

        int status = new CommandLine(new TestbedRunner()).execute(args);

        assertEquals(0, status);
        assertTrue(Files.isRegularFile(results), results + " missing");
    }
}
