package io.statecast.examples.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.statecast.overlay.sim.DtSimRun;
import io.statecast.overlay.sim.SimReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code statecast sim --nodes N [--seed S] [--loss P] [--json FILE]}: a mass join of N DT nodes on
 * the in-memory substrate with a virtual clock, checked against an independent Delaunay
 * triangulation. Exit status 0 only when the overlay converged and matches it; 1 otherwise.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Simulate a DT overlay: N nodes join at once on the in-memory substrate with a virtual clock; "
                + "report rounds and virtual time to convergence, whether the overlay is the Delaunay triangulation "
                + "(checked independently of the protocol), degree and tree-depth statistics. "
                + "Exit status 0 only when converged and matching.")
public final class SimCommand implements Callable<Integer> {


    @Option(names = {"-n", "--nodes"}, required = true, paramLabel = "N", description = "Number of nodes (1..100000).")
    private int nodes;

    @Option(names = {"-s", "--seed"}, paramLabel = "S", description = "Seed of points, buddies, faults and nodes (default: random, printed).")
    private Long seed;

    @Option(names = "--loss", paramLabel = "P", defaultValue = "0", description = "Probability that a frame is lost, 0..1 (default ${DEFAULT-VALUE}).")
    private double loss;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the report as JSON to FILE.")
    private Path json;

    @Option(names = "--buddies", paramLabel = "K", defaultValue = "2", description = "Random earlier nodes each node has as buddies (default ${DEFAULT-VALUE}).")
    private int buddies;

    @Option(names = "--frame", paramLabel = "W", defaultValue = "10000", description = "Points are drawn from [0, W]² (default ${DEFAULT-VALUE}).")
    private int frame;

    @Option(names = "--delay-ms", paramLabel = "MS", defaultValue = "1", description = "Fixed delay of every frame (default ${DEFAULT-VALUE}).")
    private long delayMs;

    @Option(names = "--jitter-ms", paramLabel = "MS", defaultValue = "4", description = "Largest extra uniform delay of every frame (default ${DEFAULT-VALUE}).")
    private long jitterMs;

    @Option(names = "--max-seconds", paramLabel = "S", defaultValue = "600", description = "Virtual-time limit (default ${DEFAULT-VALUE}).")
    private long maxSeconds;

    @Option(names = "--roots", paramLabel = "R", defaultValue = "10", description = "Random roots whose trees are examined (default ${DEFAULT-VALUE}).")
    private int roots;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        long s = seed != null ? seed : new SecureRandom().nextLong();
        DtSimRun.Options options;
        try {
            options = new DtSimRun.Options(nodes, s, loss, buddies, frame, Duration.ofMillis(delayMs), Duration.ofMillis(jitterMs),
                    Duration.ofSeconds(maxSeconds), roots);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        SimReport r = DtSimRun.run(options);
        out.printf(Locale.ROOT, "nodes=%d seed=%d loss=%s%n", r.nodes(), r.seed(), r.loss());
        out.printf(Locale.ROOT, "converged=%s rounds=%d virtualTimeMs=%d (detected at %d ms) protocolMessages=%d wallMs=%d%n",
                r.converged(), r.rounds(), r.virtualTimeMs(), r.detectedAtMs(), r.protocolMessages(), r.wallMs());
        out.printf(Locale.ROOT, "matchesOracle=%s%s edges=%d (3N-3-h=%d, h=%d) leaders=%d%n", r.matchesOracle(),
                r.oracleProblem() == null ? "" : " (" + r.oracleProblem() + ")", r.edges(), 3 * r.nodes() - 3 - r.hullNodes(),
                r.hullNodes(), r.leaders());
        out.printf(Locale.ROOT, "degree max=%d avg=%.2f; trees of %d roots consistent=%s depth max=%d avg=%.2f (0.5*sqrt(N)=%.1f)%n",
                r.maxDegree(), r.avgDegree(), r.treeRoots(), r.treesConsistent(), r.maxDepth(), r.avgDepth(),
                0.5 * Math.sqrt(r.nodes()));
        if (json != null) {
            try {
                Path parent = json.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), r);
            } catch (IOException e) {
                spec.commandLine().getErr().println("sim: cannot write " + json + ": " + e.getMessage());
                return 1;
            }
        }
        out.flush();
        return r.ok() ? 0 : 1;
    }
}
