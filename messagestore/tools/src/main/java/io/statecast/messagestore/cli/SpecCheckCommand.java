package io.statecast.messagestore.cli;

import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.check.CheckOptions;
import io.statecast.messagestore.tools.check.CheckReport;
import io.statecast.messagestore.tools.check.SpecChecker;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec check FILE… [--depth N] [--peers K] [-P NAME=VALUE]… [--json]}: bounded model checking
 * ({@link SpecChecker}). Exit status 0 without errors, 1 with errors (or warnings, with
 * {@code --warnings-as-errors}), 2 when a spec cannot be checked (does not load).
 */
@Command(name = "check",
        description = {"Bounded model checking: explore every interleaving of a spec's inputs (each message from "
                + "each abstract peer, each pending timer's expiry) up to a depth, evaluating its composite events, "
                + "and report leaking states, send storms, unhandled timers and events never handled, each with a "
                + "shortest trace.",
            "Exit status 0: no errors, 1: errors (or warnings with -W), 2: a spec does not load."})
final class SpecCheckCommand implements Callable<Integer> {


    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Spec files to check.")
    private List<Path> files;

    @Option(names = "--depth", paramLabel = "N", description = "Most inputs on a path (default: ${DEFAULT-VALUE}).")
    private int depth = CheckOptions.DEFAULT_DEPTH;

    @Option(names = "--peers", paramLabel = "K",
            description = "Abstract peers: a parent, children, from 4 on a neighbour (default: ${DEFAULT-VALUE}).")
    private int peers = CheckOptions.DEFAULT_PEERS;

    @Option(names = "--history-cap", paramLabel = "C",
            description = "Identical inputs of one event the state abstraction tells apart (default: ${DEFAULT-VALUE}).")
    private int historyCap = CheckOptions.DEFAULT_HISTORY_CAP;

    @Option(names = "--max-states", paramLabel = "S",
            description = "Stop exploring after this many states (default: ${DEFAULT-VALUE}).")
    private int maxStates = CheckOptions.DEFAULT_MAX_STATES;

    @Option(names = "--time-limit", paramLabel = "SECONDS",
            description = "Stop exploring a spec after this many seconds (default: ${DEFAULT-VALUE}).")
    private long timeLimitSeconds = CheckOptions.DEFAULT_TIME_LIMIT.toSeconds();

    @Option(names = {"-P", "--param"}, paramLabel = "NAME=VALUE",
            description = "Check with this parameter value instead of the spec's default (repeatable), e.g. a count "
                    + "threshold larger than the depth.")
    private Map<String, String> parameters = new LinkedHashMap<>();

    @Option(names = {"-W", "--warnings-as-errors"}, description = "Exit with status 1 on warnings too.")
    private boolean warningsAsErrors;

    @Option(names = "--json", description = "Print the reports as one JSON document.")
    private boolean json;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Integer refused = InputFiles.refuseUnreadable(files, spec.commandLine().getErr());
        if (refused != null) {
            return refused;
        }
        CheckOptions options;
        try {
            options = CheckOptions.defaults().withDepth(depth).withPeers(peers).withHistoryCap(historyCap)
                    .withMaxStates(maxStates).withTimeLimit(Duration.ofSeconds(timeLimitSeconds));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        List<CheckReport> reports = new ArrayList<>();
        try (SpecLoader loader = new SpecLoader()) {
            PrintWriter err = spec.commandLine().getErr();
            SpecChecker checker = new SpecChecker(loader, (states, transitions, elapsed) -> {
                err.printf("  … %,d states, %,d transitions after %d s (stops at %,d states or %d s)%n", states,
                        transitions, elapsed.toSeconds(), maxStates, timeLimitSeconds);
                err.flush();
            });
            for (Path f : files) {
                CheckReport r = checker.check(f, options, parameters);
                reports.add(r);
                if (!json) {
                    out.print(r.format());
                    out.flush();
                }
            }
        }
        int status = CheckReport.CLEAN;
        for (CheckReport r : reports) {
            status = Math.max(status, r.exitStatus(warningsAsErrors));
        }
        if (json) {
            out.print("{\"reports\":[\n");
            for (int i = 0; i < reports.size(); i++) {
                out.print(i == 0 ? "" : ",\n");
                out.print(reports.get(i).toJson(warningsAsErrors).stripTrailing());
            }
            out.print("\n],\"exitStatus\":" + status + "}\n");
        }
        out.flush();
        return status;
    }
}
