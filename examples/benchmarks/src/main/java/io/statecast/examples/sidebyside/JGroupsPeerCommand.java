package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.TtcpReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jgroups send|recv}: one JGroups member of a side-by-side cell ({@link JGroupsPeer}), as
 * {@link PeerMain} starts it. Exit status: 0 complete, 1 not (the report's {@code outcome} says
 * why), 2 bad arguments.
 */
@Command(name = "jgroups", mixinStandardHelpOptions = true, description = "One JGroups member of a side-by-side cell.")
final class JGroupsPeerCommand implements Callable<Integer> {

    /** The member's part. */
    enum Role { send, recv }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ROLE", description = "send or recv")
    private Role role;

    @Option(names = "--port", required = true, description = "this member's UDP port on 127.0.0.1")
    private int port;

    @Option(names = "--ports", required = true, split = ",", description = "every member's UDP port")
    private List<Integer> ports;

    @Option(names = "--unicast", description = "send to the one other member instead of the group")
    private boolean unicast;

    @Option(names = "--count", defaultValue = "20000", description = "measured messages (default: ${DEFAULT-VALUE})")
    private int count;

    @Option(names = "--size", defaultValue = "1024", description = "payload bytes (default: ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--warmup", defaultValue = "2000", description = "warm-up messages (default: ${DEFAULT-VALUE})")
    private int warmup;

    @Option(names = "--rate", description = "messages per second (default: as fast as flow control allows)")
    private Double rate;

    @Option(names = "--wait-ms", defaultValue = "60000", description = "group forming and warm-up wait (default: ${DEFAULT-VALUE})")
    private long waitMs;

    @Option(names = "--idle-ms", defaultValue = "10000", description = "a receiver's wait after the last message (default: ${DEFAULT-VALUE})")
    private long idleMs;

    @Option(names = "--linger-ms", defaultValue = "30000", description = "wait for DONE (sender) or FIN (receiver) (default: ${DEFAULT-VALUE})")
    private long lingerMs;

    @Option(names = "--json", required = true, description = "write the report here")
    private Path json;

    @Override
    public Integer call() throws Exception {
        JGroupsPeer.Options options;
        try {
            options = new JGroupsPeer.Options(role == Role.send, port, ports, unicast, count, size, warmup,
                    rate == null ? Double.POSITIVE_INFINITY : rate, waitMs, idleMs, lingerMs);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        ObjectNode report = new JGroupsPeer(options, out).run();
        TtcpReport.write(report, json);
        out.flush();
        return report.path("outcome").asText().equals("complete") ? 0 : 1;
    }
}
