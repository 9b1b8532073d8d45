package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.TtcpReport;
import io.statecast.examples.ttcp.TtcpSockets;
import io.statecast.overlay.socket.OverlayConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code order jgroups|statecast}: one member of a side-by-side total-order cell ({@link OrderPeer}),
 * as {@link PeerMain} starts it. Exit status: 0 complete, 1 not (the report's {@code outcome} says
 * why), 2 bad arguments.
 */
@Command(name = "order", mixinStandardHelpOptions = true, description = "One member of a side-by-side total-order cell.")
final class OrderPeerCommand implements Callable<Integer> {

    /** The member's system. */
    enum SystemName { jgroups, statecast }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SYSTEM", description = "jgroups or statecast")
    private SystemName system;

    @Option(names = "--member", required = true, description = "this member's number, 1..--members")
    private int member;

    @Option(names = "--members", required = true, description = "members of the group")
    private int members;

    @Option(names = "--ports", split = ",", description = "jgroups: every member's UDP port on 127.0.0.1, in member order")
    private List<Integer> ports;

    @Option(names = "--config", description = "statecast: the node's overlay configuration (its store loads the service)")
    private Path config;

    @Option(names = "--service", defaultValue = "30", description = "statecast: the total-order service's ServiceID (default: ${DEFAULT-VALUE})")
    private int service;

    @Option(names = "--count", defaultValue = "1000", description = "measured messages this member sends (default: ${DEFAULT-VALUE})")
    private int count;

    @Option(names = "--size", defaultValue = "1024", description = "payload bytes (default: ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--warmup", defaultValue = "100", description = "warm-up messages this member sends (default: ${DEFAULT-VALUE})")
    private int warmup;

    @Option(names = "--window", defaultValue = "50", description = "own messages sent and not yet delivered, at most (default: ${DEFAULT-VALUE})")
    private int window;

    @Option(names = "--wait-ms", defaultValue = "120000", description = "group forming and warm-up wait (default: ${DEFAULT-VALUE})")
    private long waitMs;

    @Option(names = "--idle-ms", defaultValue = "10000", description = "give up this long after the last delivery (default: ${DEFAULT-VALUE})")
    private long idleMs;

    @Option(names = "--linger-ms", defaultValue = "30000", description = "wait for every member's DONE (default: ${DEFAULT-VALUE})")
    private long lingerMs;

    @Option(names = "--stay-ms", defaultValue = "0",
            description = "after the report, stay in the group this long (until stopped), so that no member leaves one that still delivers (default: ${DEFAULT-VALUE})")
    private long stayMs;

    @Option(names = "--json", required = true, description = "write the report here")
    private Path json;

    @Option(names = "--order", required = true, description = "write the delivery sequence here")
    private Path orderFile;

    @Override
    public Integer call() throws Exception {
        OrderPeer.Options options;
        try {
            options = new OrderPeer.Options(member, members, count, size, warmup, window, waitMs, idleMs, lingerMs);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        ObjectNode report;
        if (system == SystemName.jgroups) {
            if (ports == null || ports.size() != members) {
                throw new CommandLine.ParameterException(spec.commandLine(), "jgroups needs --ports with one port per member");
            }
            try (JGroupsOrderPeer peer = new JGroupsOrderPeer(options, ports.get(member - 1), ports, out)) {
                report = peer.run(orderFile);
                finish(report, out);
            }
        } else {
            if (config == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "statecast needs --config");
            }
            try (StatecastOrderPeer peer = new StatecastOrderPeer(options, TtcpSockets.open(OverlayConfig.load(config)),
                    service, out)) {
                report = peer.run(orderFile);
                finish(report, out);
            }
        }
        return report.path("outcome").asText().equals("complete") ? 0 : 1;
    }

    /**
     * Writes the report, then stays {@code --stay-ms} with the member still in its group: a
     * member that saw every DONE may be ahead of one that has yet to deliver the last of them, and
     * both protocols need the members to deliver (JGroups' member 1 is the sequencer; the ring
     * stalls without a member until it is removed).
     */
    private void finish(ObjectNode report, PrintWriter out) throws Exception {
        report.put("system", system.name());
        TtcpReport.write(report, json);
        out.printf("order: report written to %s%n", json);
        out.flush();
        Thread.sleep(stayMs);
    }
}
