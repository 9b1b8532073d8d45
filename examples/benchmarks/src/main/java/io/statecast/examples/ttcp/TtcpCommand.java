package io.statecast.examples.ttcp;

import picocli.CommandLine.Command;

/**
 * {@code statecast ttcp send|recv}: the blueprint's TTCP variant for overlay messages (chapter
 * 6.2.1). A sender multicasts numbered, timestamped, checksummed messages at a set rate; every
 * receiver records when each was sent and received; both write the blueprint's metrics
 * (Table 6.1) as JSON.
 */
@Command(name = "ttcp", mixinStandardHelpOptions = true,
        description = {
            "The blueprint's TTCP variant over an overlay: one sender multicasts --count messages of --size bytes,",
            "receivers record per-message send and receive times; both write JSON with delay, throughput on a",
            "500-message window, T_msg, backlogs, live instances, heap and drops by cause.",
            "Rendezvous: receivers multicast HELLO until data arrives; the sender waits for --wait-for of them.",
            "Start the receivers and the sender in any order."
        },
        subcommands = {TtcpSendCommand.class, TtcpRecvCommand.class})
public final class TtcpCommand implements Runnable {

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
