package io.statecast.examples.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code statecast demo}: the whole system in one command (see {@code docs/demo.md}). */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Start an embedded spec server and --nodes overlay nodes on UDP loopback forming a DT overlay, publish",
            "--service to the server, and let node 1 multicast --messages messages of --size bytes while every node's",
            "input drops --loss of the frames it receives. Nodes without the service download it from the server.",
            "Shows progress, then a table per node; writes a JSON report (--json) and charts (--charts).",
            "Exit status: 0 every receiver got what the service promises; 1 messages the service promises are missing",
            "or the demo could not run; 2 bad arguments."
        })
public final class DemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", defaultValue = "6", paramLabel = "N", description = "overlay nodes, 2..32 (default: ${DEFAULT-VALUE})")
    private int nodes;

    @Option(names = "--messages", defaultValue = "10000", paramLabel = "N", description = "messages node 1 multicasts (default: ${DEFAULT-VALUE})")
    private int messages;

    @Option(names = "--size", defaultValue = "1024", paramLabel = "BYTES", description = "payload bytes, 33..60000 (default: ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--loss", defaultValue = "0.05", paramLabel = "P",
            description = "probability that a node's input drops a frame, 0..0.5 (default: ${DEFAULT-VALUE})")
    private double loss;

    @Option(names = "--service", defaultValue = DemoService.DEFAULT, paramLabel = "SERVICE",
            description = "a service of the services module (h2h-ack), a .scxml file, a classpath:/file: URI, or 'none' for "
                    + "best-effort (default: ${DEFAULT-VALUE})")
    private String service;

    @Option(names = "--rate", defaultValue = "500", paramLabel = "MSGS_PER_S", description = "send rate (default: ${DEFAULT-VALUE})")
    private double rate;

    @Option(names = "--idle", defaultValue = "20", paramLabel = "S",
            description = "a receiver that heard no data this long gives up on the rest (default: ${DEFAULT-VALUE})")
    private double idle;

    @Option(names = "--seed", paramLabel = "N", description = "seeds loss and addresses (default: random, printed)")
    private Long seed;

    @Option(names = "--json", paramLabel = "FILE", description = "the report (default: report.json in a new directory under the temporary directory)")
    private Path json;

    @Option(names = "--charts", paramLabel = "DIR", description = "where the PNG charts go (default: beside the report)")
    private Path charts;

    @Option(names = "--verbose", description = "also print the nodes' and the spec server's INFO log lines (default: "
            + "warnings and errors only, so the progress bar and the table stay readable)")
    private boolean verbose; // read by StatecastCommand.main, before the first logger exists

    /**
     * Whether a command line runs the demo without {@code --verbose}: the demo prints its own account
     * of every step, and the library's INFO lines would repeat it between the progress bar's lines.
     *
     * @param args the process's arguments
     * @return whether to log warnings and errors only
     */
    public static boolean wantsQuietLogs(String[] args) {
        return args.length > 0 && args[0].equals("demo") && !java.util.Arrays.asList(args).contains("--verbose");
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long s = seed != null ? seed : new SecureRandom().nextLong() >>> 1;
        Path report = json;
        if (report == null) {
            try {
                report = Files.createTempDirectory("statecast-demo-").resolve("report.json");
            } catch (IOException e) {
                err.println("statecast demo: cannot create an output directory: " + e.getMessage());
                return Demo.EXIT_FAILED;
            }
        }
        Path chartDir = charts != null ? charts : report.toAbsolutePath().getParent();
        DemoOptions options;
        try {
            options = new DemoOptions(nodes, messages, size, loss, service, rate, s,
                    Double.isFinite(idle) ? Math.round(idle * 1000) : -1, report, chartDir);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        // a terminal gets a bar redrawn in place; a pipe or file gets plain lines (Java 17: no console
        // unless both standard input and output are terminals)
        boolean terminal = System.console() != null;
        try {
            return new Demo(options, out, terminal).run().exitCode();
        } catch (DemoException e) {
            out.flush();
            err.println("statecast demo: " + e.getMessage());
            return Demo.EXIT_FAILED;
        }
    }
}
