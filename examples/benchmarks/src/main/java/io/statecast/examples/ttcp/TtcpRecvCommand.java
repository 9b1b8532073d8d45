package io.statecast.examples.ttcp;

import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlayConfigException;
import io.statecast.overlay.socket.OverlayJoinException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code statecast ttcp recv}: a receiving side. */
@Command(name = "recv", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Join the overlay, multicast HELLO until data arrives, record every message's send and receive time,",
            "finish when every message arrived, after --idle seconds without data, or on the sender's FIN;",
            "then keep forwarding and announce DONE until FIN or --linger seconds; write --json.",
            "Exit status: 0 every message arrived intact; 1 messages missing or corrupt, no data arrived, or the",
            "node failed (the report's outcome says which); 2 bad arguments or configuration."
        })
final class TtcpRecvCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "overlay configuration (.yaml or .json)")
    private Path config;

    @Option(names = "--count", defaultValue = "0", paramLabel = "N",
            description = "messages expected if none arrives (every DATA carries the run's count; default: ${DEFAULT-VALUE})")
    private int count;

    @Option(names = "--idle", defaultValue = "10", paramLabel = "S",
            description = "finish after this many seconds without data (default: ${DEFAULT-VALUE})")
    private double idle;

    @Option(names = "--start-timeout", defaultValue = "120", paramLabel = "S",
            description = "give up if no data arrives this many seconds after joining (default: ${DEFAULT-VALUE})")
    private double startTimeout;

    @Option(names = "--linger", defaultValue = "30", paramLabel = "S",
            description = "after finishing, keep forwarding at most this many seconds, until the sender's FIN (default: ${DEFAULT-VALUE})")
    private double linger;

    @Option(names = "--hello-ms", defaultValue = "200", paramLabel = "MS",
            description = "interval of HELLO and DONE announcements (default: ${DEFAULT-VALUE})")
    private long helloMs;

    @Option(names = "--sample-ms", defaultValue = "100", paramLabel = "MS",
            description = "sampling period of heap, queues and MessageStore metrics (default: ${DEFAULT-VALUE})")
    private long sampleMs;

    @Option(names = "--json", paramLabel = "FILE", description = "write the report here")
    private Path json;

    @Override
    public Integer call() throws Exception {
        TtcpReceiver.Options options;
        try {
            options = new TtcpReceiver.Options(count, millis("--idle", idle), millis("--start-timeout", startTimeout),
                    millis("--linger", linger), helloMs, sampleMs);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        TtcpSockets.Opened opened;
        try {
            opened = TtcpSockets.open(OverlayConfig.load(config));
        } catch (OverlayConfigException e) {
            spec.commandLine().getErr().println("statecast ttcp recv: " + e.getMessage());
            return CommandLine.ExitCode.USAGE;
        } catch (IOException e) {
            spec.commandLine().getErr().println("statecast ttcp recv: " + e.getMessage());
            return CommandLine.ExitCode.SOFTWARE;
        }
        try (var socket = opened.socket()) {
            TtcpReceiver.Result r = new TtcpReceiver(socket, options, opened.probe(), out).run();
            if (json != null) {
                TtcpReport.write(r.report(), json);
                out.println("ttcp recv: report written to " + json);
            }
            return r.exitCode();
        } catch (OverlayJoinException e) {
            spec.commandLine().getErr().println("statecast ttcp recv: " + e.getMessage());
            return 1;
        }
    }

    private long millis(String name, double s) {
        if (!(s >= 0 && s <= 86_400)) {
            throw new ParameterException(spec.commandLine(), name + "=" + s + " must be within 0..86400 seconds");
        }
        return Math.round(s * 1000);
    }
}
