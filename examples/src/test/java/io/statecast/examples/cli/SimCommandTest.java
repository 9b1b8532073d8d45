package io.statecast.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code statecast sim}: report, JSON keys and exit status. */
class SimCommandTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new SimCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void shouldReportAConvergedMatchingRunAsJsonAndExitZero(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("out/sim.json");
        Run r = run("--nodes", "40", "--seed", Long.toString(SEED), "--json", json.toString());
        assertEquals(0, r.exit(), () -> r.out() + r.err());
        assertTrue(r.out().contains("converged=true") && r.out().contains("matchesOracle=true"), r.out());
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        for (String key : new String[] {"nodes", "converged", "matchesOracle", "rounds", "virtualTimeMs", "edges", "leaders",
            "maxDegree", "maxDepth"}) {
            assertTrue(j.has(key), "JSON key " + key + " in " + j);
        }
        assertEquals(40, j.get("nodes").asInt());
        assertTrue(j.get("converged").isBoolean() && j.get("converged").asBoolean());
        assertTrue(j.get("matchesOracle").asBoolean());
        assertEquals(1, j.get("leaders").asInt());
        assertEquals(SEED, j.get("seed").asLong());
        assertTrue(j.get("rounds").asLong() > 0 && j.get("virtualTimeMs").asLong() > 0, j.toString());
        assertTrue(j.get("edges").asInt() <= 3 * 40 - 6);
    }

    @Test
    void shouldExitOneWhenTheOverlayHasNotConvergedInTime() {
        Run r = run("--nodes", "30", "--seed", Long.toString(SEED), "--max-seconds", "0");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("converged=false"), r.out());
    }

    @Test
    void shouldRefuseBadArgumentsWithUsage() {
        assertEquals(2, run("--nodes", "0").exit());
        assertEquals(2, run("--nodes", "10", "--loss", "1.5").exit());
        assertEquals(2, run("--seed", "1").exit(), "--nodes is required");
    }
}
