package io.statecast.examples.ttcp;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlayConfigException;
import io.statecast.overlay.socket.OverlayJoinException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code statecast ttcp send}: the sending side. */
@Command(name = "send", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Join the overlay, wait for --wait-for receivers to say HELLO, warm up, multicast --count DATA messages",
            "of --size bytes paced at --rate (default: as fast as the substrate accepts them), wait up to --linger",
            "seconds for every receiver's DONE, send FIN, write --json.",
            "Exit status: 0 all sent and every receiver complete; 1 failed sends, receivers not ready in time, a",
            "receiver that missed messages or never reported (the report's outcome says which); 2 bad arguments",
            "or configuration."
        })
final class TtcpSendCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "overlay configuration (.yaml or .json)")
    private Path config;

    @Option(names = "--count", defaultValue = "10000", paramLabel = "N", description = "data messages (default: ${DEFAULT-VALUE})")
    private int count;

    @Option(names = "--size", defaultValue = "1024", paramLabel = "BYTES",
            description = "payload bytes per message, 33..60000 (default: ${DEFAULT-VALUE})")
    private int size;

    /** The send rate, in one of two units; neither means as fast as possible. */
    static final class Rate {
        @Option(names = "--rate", paramLabel = "MSGS_PER_S", description = "send rate in messages per second")
        Double messagesPerSecond;

        @Option(names = "--rate-mbps", paramLabel = "MBPS", description = "send rate in Mbit/s of payload (rate = MBPS*1e6/(8*size))")
        Double mbps;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    private Rate rate;

    @Option(names = "--burst", paramLabel = "N", description = "most messages sent back to back to catch up with the schedule (default: 50 ms of the rate)")
    private Integer burst;

    @Option(names = "--tick-us", defaultValue = "1000", paramLabel = "US",
            description = "with a rate, wake at most once per this many microseconds and send what fell due meanwhile back to back; "
                    + "0 wakes once per message (default: ${DEFAULT-VALUE}, iperf3's pacing timer)")
    private long tickMicros;

    @Option(names = "--service", defaultValue = "none", paramLabel = "ID",
            description = "MessageStore ServiceID of the data messages, or 'none' for best-effort (default: ${DEFAULT-VALUE})")
    private String service;

    @Option(names = "--to", paramLabel = "ADDRESS",
            description = "unicast the data messages to this receiver's logical address (a TREE id, or DT x,y) instead of "
                    + "multicasting them; for unicast services such as reliable-unicast (default: multicast)")
    private String to;

    @Option(names = "--wait-for", defaultValue = "1", paramLabel = "N",
            description = "receivers whose HELLO to await before sending (default: ${DEFAULT-VALUE})")
    private int waitFor;

    @Option(names = "--wait-timeout", defaultValue = "60", paramLabel = "S",
            description = "seconds to wait for them (default: ${DEFAULT-VALUE})")
    private double waitTimeout;

    @Option(names = "--warmup-messages", defaultValue = "0", paramLabel = "N",
            description = "messages sent at the set rate and with the run's service before the measured run, discarded by "
                    + "receivers, so every node's code is compiled when measuring starts (default: ${DEFAULT-VALUE})")
    private int warmupMessages;

    @Option(names = "--warmup-ramp", defaultValue = "0.5", paramLabel = "F",
            description = "fraction of the warm-up messages sent while the rate climbs in steps from a quarter of the set "
                    + "rate to it, 0..1; 0 sends the whole warm-up at the set rate (default: ${DEFAULT-VALUE})")
    private double warmupRamp;

    @Option(names = "--warmup-wait", defaultValue = "30", paramLabel = "S",
            description = "after the warm-up messages, wait at most this many seconds until every receiver has all of them, so "
                    + "that a reliable service's repairs of the warm-up are over when the run starts (default: ${DEFAULT-VALUE})")
    private double warmupWait;

    @Option(names = "--warmup-quiet", defaultValue = "5", paramLabel = "S",
            description = "end that wait once no receiver gained a warm-up message for this many seconds: messages a "
                    + "best-effort service lost, or a reliable one gave up on, never come (default: ${DEFAULT-VALUE})")
    private double warmupQuiet;

    @Option(names = "--warmup-ms", defaultValue = "500", paramLabel = "MS",
            description = "pause after that wait, before the first measured message (default: ${DEFAULT-VALUE})")
    private long warmupMs;

    @Option(names = "--linger", defaultValue = "30", paramLabel = "S",
            description = "seconds to wait for every receiver's DONE after the last message (default: ${DEFAULT-VALUE})")
    private double linger;

    @Option(names = "--sample-ms", defaultValue = "100", paramLabel = "MS",
            description = "sampling period of heap, queues and MessageStore metrics (default: ${DEFAULT-VALUE})")
    private long sampleMs;

    @Option(names = "--no-backpressure", description = "do not wait while the substrate toward a child is not writable or the own MessageStore's data queue is half full")
    private boolean noBackpressure;

    @Option(names = "--json", paramLabel = "FILE", description = "write the report here")
    private Path json;

    @Override
    public Integer call() throws Exception {
        TtcpSender.Options options = options();
        LogicalAddress destination = destination();
        PrintWriter out = spec.commandLine().getOut();
        OverlayConfig cfg;
        TtcpSockets.Opened opened;
        try {
            cfg = OverlayConfig.load(config);
            if (options.size() + 128 > cfg.buffers().maxMessageBytes()) {
                throw new ParameterException(spec.commandLine(), "--size=" + options.size() + " does not fit overlay.buffers.maxMessageBytes="
                        + cfg.buffers().maxMessageBytes() + " with the overlay header (128 bytes reserved)");
            }
            opened = TtcpSockets.open(cfg);
        } catch (OverlayConfigException e) {
            spec.commandLine().getErr().println("statecast ttcp send: " + e.getMessage());
            return CommandLine.ExitCode.USAGE;
        } catch (IOException e) {
            spec.commandLine().getErr().println("statecast ttcp send: " + e.getMessage());
            return CommandLine.ExitCode.SOFTWARE;
        }
        try (var socket = opened.socket()) {
            TtcpSender.Result r = new TtcpSender(socket, options, opened.probe(), out, destination).run();
            if (json != null) {
                TtcpReport.write(r.report(), json);
                out.println("ttcp send: report written to " + json);
            }
            return r.exitCode();
        } catch (OverlayJoinException e) {
            spec.commandLine().getErr().println("statecast ttcp send: " + e.getMessage());
            return 1;
        }
    }

    private TtcpSender.Options options() {
        double r = Double.POSITIVE_INFINITY;
        if (rate != null && rate.messagesPerSecond != null) {
            r = rate.messagesPerSecond;
        } else if (rate != null && rate.mbps != null) {
            r = rate.mbps * 1e6 / (8.0 * size);
        }
        if (!(r > 0)) {
            throw new ParameterException(spec.commandLine(), "the send rate must be > 0, got " + r + " messages/s");
        }
        Integer serviceId = TtcpServices.parse(service, spec.commandLine());
        try {
            return new TtcpSender.Options(count, size, r, burst != null ? burst : Pacer.defaultBurst(r), tickMicros, serviceId, waitFor,
                    seconds("--wait-timeout", waitTimeout), warmupMessages, warmupRamp,
                    seconds("--warmup-wait", warmupWait), seconds("--warmup-quiet", warmupQuiet), warmupMs, seconds("--linger", linger), sampleMs, !noBackpressure);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** {@code --to}: a TREE id or DT coordinates, or {@code null} to multicast. */
    private LogicalAddress destination() {
        if (to == null) {
            return null;
        }
        String t = to.trim();
        try {
            int comma = t.indexOf(',');
            if (comma < 0) {
                return new TreeAddress(Long.parseLong(t));
            }
            return new DtAddress(Integer.parseInt(t.substring(0, comma).trim()), Integer.parseInt(t.substring(comma + 1).trim()));
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--to=" + to + " must be a TREE id (an integer) or DT coordinates x,y");
        }
    }

    private long seconds(String name, double s) {
        if (!(s >= 0 && s <= 86_400)) {
            throw new ParameterException(spec.commandLine(), name + "=" + s + " must be within 0..86400 seconds");
        }
        return Math.round(s * 1000);
    }
}
