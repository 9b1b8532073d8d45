package io.statecast.examples.node;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.ForwardingStatistics;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlayConfigException;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.socket.OverlayStatistics;
import io.statecast.overlay.socket.PeerEventTypes;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.FaultModel;
import io.statecast.overlay.substrate.FaultyInterface;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.SubstrateInterface;
import io.statecast.overlay.substrate.UdpConfig;
import io.statecast.overlay.substrate.UdpInterface;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One overlay node as a process ({@code statecast node}): builds a socket from a configuration
 * file, joins, reports what happens as lines on standard output, optionally takes commands on
 * standard input, and leaves gracefully when told to quit, when its control input ends, or on
 * SIGTERM. The line protocol is specified in {@code docs/node.md}.
 *
 * <h2>Threads</h2>
 * The main thread waits for a stop request and then shuts down. Events come from the node's
 * protocol thread (topology), the socket's delivery thread (RECV) and the control thread
 * (replies); all of them only queue lines in {@link LineOutput}, whose own thread writes them, so
 * a slow reader of standard output never stalls the node.
 *
 * <h2>Exit status</h2>
 * {@value #EXIT_OK} after a graceful stop (quit, end of control input, SIGTERM);
 * {@value #EXIT_FAILURE} when an interface cannot be opened or joining fails;
 * {@value #EXIT_CONFIG} for an invalid configuration (the message, naming the field, on standard
 * error).
 */
public final class NodeRunner {

    /** Graceful stop. */
    public static final int EXIT_OK = 0;
    /** Interfaces could not be opened, or the join timed out. */
    public static final int EXIT_FAILURE = 1;
    /** The configuration is invalid. */
    public static final int EXIT_CONFIG = 2;
    /** Longest control line read; longer lines are skipped and answered with ERR. */
    public static final int MAX_CONTROL_LINE_BYTES = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(NodeRunner.class);
    private static final String PREFIX = "statecast node: ";
    private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(2);
    /** How long SIGTERM waits for the graceful shutdown before the process halts anyway. */
    private static final Duration SIGNAL_GRACE = Duration.ofSeconds(10);
    private static final long STATUS_PERIOD_MS = 250;
    private static final Duration LEAVE_WAIT = Duration.ofSeconds(5);

    /**
     * What to run.
     *
     * @param config       the overlay configuration file (.yaml, .yml or .json)
     * @param statusFile   where to keep a JSON status document, or {@code null}
     * @param controlStdin whether commands are read from standard input (its end stops the node)
     * @param inputLoss    probability (0..0.5) that the node's UDP input drops a received frame, for
     *                     tests of loss between real processes; 0: none
     * @param lossSeed     seeds those drops
     */
    public record Options(Path config, Path statusFile, boolean controlStdin, double inputLoss, long lossSeed) {
        /** Requires a configuration and a loss within 0..0.5. */
        public Options {
            Objects.requireNonNull(config, "config");
            if (!(inputLoss >= 0 && inputLoss <= 0.5)) {
                throw new IllegalArgumentException("input loss " + inputLoss + " must be within 0..0.5");
            }
        }

        /** Without loss. */
        public Options(Path config, Path statusFile, boolean controlStdin) {
            this(config, statusFile, controlStdin, 0, 0);
        }
    }

    private final Options options;
    /** Runs the lossy interfaces' delayed frames (none with loss alone); null without input loss. */
    private RealTimerService faultTimers;
    private final InputStream in;
    private final OutputStream out;
    private final PrintStream err;
    private final ObjectMapper json = new ObjectMapper();
    private final ReceiveTally tally = new ReceiveTally();
    private final AtomicLong nextSeq = new AtomicLong();
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final AtomicBoolean statusFailed = new AtomicBoolean();
    private volatile String stopReason = "running";
    private volatile int exitCode = EXIT_OK;
    private volatile boolean joined;
    private OverlayConfig config;
    private OverlaySocket socket;
    private LineOutput lines;
    private StatusFile status;
    /** Status writer thread only (and the main thread once that thread has stopped). */
    private String lastStatus;

    /**
     * @param options what to run
     * @param in      control input (read only with {@link Options#controlStdin})
     * @param out     where protocol lines go
     * @param err     where configuration and start-up errors go
     */
    public NodeRunner(Options options, InputStream in, OutputStream out, PrintStream err) {
        this.options = Objects.requireNonNull(options, "options");
        this.in = Objects.requireNonNull(in, "in");
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
    }

    /**
     * Runs the node until it is stopped.
     *
     * @return the exit status ({@link #EXIT_OK}, {@link #EXIT_FAILURE}, {@link #EXIT_CONFIG})
     */
    public int run() {
        try {
            config = OverlayConfig.load(options.config());
            socket = options.inputLoss() > 0 ? lossySocket(config) : OverlaySocket.create(config);
        } catch (OverlayConfigException e) {
            err.println(PREFIX + e.getMessage());
            return EXIT_CONFIG;
        } catch (IOException e) {
            err.println(PREFIX + "cannot open interfaces " + config.interfaces() + ": " + e.getMessage());
            return EXIT_FAILURE;
        }
        lines = new LineOutput(out, LineOutput.DEFAULT_CAPACITY, "statecast-node-stdout");
        status = options.statusFile() == null ? null : new StatusFile(options.statusFile());
        Thread hook = new Thread(this::onSignal, "statecast-node-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ScheduledExecutorService statusWriter = null;
        try {
            statusWriter = serve();
            awaitStop();
        } finally {
            shutdown(statusWriter);
            finished.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down (SIGTERM): the hook halts with our exit code
        }
        return exitCode;
    }

    private ScheduledExecutorService serve() {
        socket.node().addListener(this::onTopologyChanged);
        socket.onMessage(this::onMessage);
        lines.emit("READY " + token(socket.localAddress()) + " "
                + socket.substrateAddresses().stream().map(SubstrateAddress::toString).collect(Collectors.joining(" ")));
        ScheduledExecutorService statusWriter = null;
        if (status != null) {
            statusWriter = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "statecast-node-status");
                t.setDaemon(true);
                return t;
            });
            statusWriter.scheduleWithFixedDelay(() -> writeStatus(false), 0, STATUS_PERIOD_MS, TimeUnit.MILLISECONDS);
        }
        socket.joinAsync().whenComplete((v, e) -> {
            if (e == null) {
                joined = true;
                lines.emit("JOINED " + socket.state() + " " + socket.neighbours().size());
            } else {
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                lines.emit("JOIN-FAILED " + cause.getMessage());
                requestStop("join-failed", EXIT_FAILURE);
            }
        });
        // after joinAsync: from here on sends are accepted (before the join completes they may find no route)
        if (options.controlStdin()) {
            Thread control = new Thread(this::controlLoop, "statecast-node-control");
            control.setDaemon(true);
            control.start();
        }
        return statusWriter;
    }

    private void awaitStop() {
        boolean interrupted = false;
        while (true) {
            try {
                stop.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void requestStop(String reason, int code) {
        synchronized (stop) {
            if (stop.getCount() > 0) {
                stopReason = reason;
                exitCode = code;
                stop.countDown();
            }
        }
    }

    /**
     * A socket whose UDP interfaces drop each received frame with probability
     * {@link Options#inputLoss} (a {@link FaultyInterface} at their input): the loss every layer
     * of the node sees, for tests between real processes without a lossy network.
     */
    private OverlaySocket lossySocket(OverlayConfig config) throws OverlayConfigException, IOException {
        faultTimers = new RealTimerService("statecast-node-faults");
        FaultModel model = new FaultModel(options.lossSeed(), FaultConfig.loss(options.inputLoss()));
        int max = Math.min(config.buffers().maxMessageBytes(), UdpConfig.MAX_UDP_PAYLOAD_BYTES);
        return OverlaySocket.builder(config).substrateFactory(a -> {
            if (a.scheme() != SubstrateAddress.Scheme.UDP) {
                throw new IOException("--input-loss needs UDP interfaces, not " + a);
            }
            return FaultyInterface.atInput(new UdpInterface(UdpConfig.defaults().withAddress(a.host(), a.port())
                    .withMaxDatagramBytes(max)), faultTimers, model);
        }).build();
    }

    /** Leave (Goodbye to every neighbour), close, say BYE, flush. */
    private void shutdown(ScheduledExecutorService statusWriter) {
        socket.leave();
        socket.close();
        if (faultTimers != null) {
            faultTimers.close();
        }
        if (statusWriter != null) {
            statusWriter.shutdown();
            try {
                // the final status must not race a periodic write on the same temporary file
                if (statusWriter.awaitTermination(5, TimeUnit.SECONDS)) {
                    writeStatus(true);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        lines.emit("BYE " + stopReason);
        lines.close(OUTPUT_DRAIN);
    }

    /** Shutdown hook: on SIGTERM (or any exit we did not start), stop gracefully, then exit 0. */
    private void onSignal() {
        requestStop("signal", EXIT_OK);
        try {
            if (finished.await(SIGNAL_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                // System.exit would block during shutdown; halt is how a hook sets the status
                Runtime.getRuntime().halt(exitCode);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------------------------- events

    private void onTopologyChanged(Topology previous, Topology current) {
        if (!previous.neighbours().equals(current.neighbours())) {
            lines.emit(neighboursLine(current));
        }
        if (previous.state() != current.state()) {
            lines.emit("STATE " + current.state());
        }
    }

    private void onMessage(OverlayMessage m) {
        byte[] payload = m.payload();
        long seq = CheckedPayload.check(payload);
        ReceiveTally.Verdict v = tally.record(token(m.source()), seq);
        lines.emit("RECV " + token(m.source()) + " " + m.mode() + " " + (payload == null ? 0 : payload.length) + " "
                + (seq < 0 ? "-" : Long.toString(seq)) + " " + v.token());
    }

    private static String neighboursLine(Topology t) {
        StringBuilder b = new StringBuilder("NEIGHBOURS ").append(t.neighbours().size());
        t.neighbours().stream().map(NodeRunner::token).sorted().forEach(a -> b.append(' ').append(a));
        return b.toString();
    }

    /**
     * A logical address as the protocol writes it, in the form {@link OverlayConfig#parseAddress}
     * reads: a decimal id (TREE) or {@code x,y} (DT), never containing a space.
     */
    public static String token(LogicalAddress a) {
        if (a instanceof TreeAddress t) {
            return Long.toString(t.id());
        }
        DtAddress d = (DtAddress) a;
        return d.x() + "," + d.y();
    }

    // ---------------------------------------------------------------------------------- control

    private void controlLoop() {
        ControlReader reader = new ControlReader(in, MAX_CONTROL_LINE_BYTES);
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line == ControlReader.TOO_LONG) {
                    lines.emit("ERR line longer than " + MAX_CONTROL_LINE_BYTES + " bytes ignored");
                } else if (!line.isBlank()) {
                    execute(line);
                }
                if (stop.getCount() == 0) {
                    return;
                }
            }
            requestStop("eof", EXIT_OK);
        } catch (IOException e) {
            requestStop("control-input-failed", EXIT_OK);
        }
    }

    /** Runs one control line; every failure becomes an ERR line, nothing escapes. */
    void execute(String line) {
        ControlCommand command;
        try {
            command = ControlCommand.parse(line);
        } catch (ControlException e) {
            lines.emit("ERR " + e.getMessage());
            return;
        }
        try {
            if (command instanceof ControlCommand.SendAll c) {
                send("send-all", DeliveryMode.MULTICAST, null, c.count(), c.size(), c.serviceId());
            } else if (command instanceof ControlCommand.SendTo c) {
                LogicalAddress to;
                try {
                    to = config.parseAddress(c.destination());
                } catch (IllegalArgumentException e) {
                    lines.emit("ERR send-to: " + e.getMessage());
                    return;
                }
                send("send-to", DeliveryMode.UNICAST, to, c.count(), c.size(), c.serviceId());
            } else if (command instanceof ControlCommand.Flood c) {
                send("flood", DeliveryMode.FLOOD, null, c.count(), c.size(), null);
            } else if (command instanceof ControlCommand.Peers c) {
                socket.onPeerEvent(c.serviceId(), PeerEventTypes.DEFAULT, e -> lines.emit("PEER " + token(e.peer()) + " "
                        + e.kind() + " " + e.cause()));
                lines.emit("PEERS " + c.serviceId());
            } else if (command instanceof ControlCommand.Stats) {
                lines.emit("STATS " + toJson(statistics()));
            } else if (command instanceof ControlCommand.Neighbours) {
                lines.emit(neighboursLine(socket.topology()));
            } else if (command instanceof ControlCommand.Ping p) {
                lines.emit(p.token() == null ? "PONG" : "PONG " + p.token());
            } else if (command instanceof ControlCommand.Leave) {
                leave();
            } else if (command instanceof ControlCommand.Quit) {
                requestStop("quit", EXIT_OK);
            } else if (command instanceof ControlCommand.Help) {
                lines.emit("HELP " + ControlCommand.USAGE);
            }
        } catch (RuntimeException e) {
            lines.emit("ERR " + line.strip().split("\\s+")[0] + ": " + e.getMessage());
        }
    }

    /**
     * Leaves and replies LEFT once the node has stopped: the node leaves on its protocol thread, so
     * a task queued there after the leave runs once it is done. Until then a send could still go
     * out, which would make LEFT a promise not yet kept.
     */
    private void leave() {
        socket.leave();
        CompletableFuture<Void> done = new CompletableFuture<>();
        socket.timers().execute(() -> done.complete(null));
        try {
            done.get(LEAVE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            lines.emit("LEFT");
        } catch (ExecutionException | TimeoutException e) {
            lines.emit("ERR leave: the node did not stop within " + LEAVE_WAIT.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends {@code count} checked payloads numbered on from the last one sent. Runs on the control
     * thread only, the one writer of {@link #nextSeq}; a message that fails takes no number. With a
     * {@code serviceId} the messages carry it and go through the node's MessageStore.
     */
    private void send(String name, DeliveryMode mode, LogicalAddress to, int count, int size, Integer serviceId) {
        long first = nextSeq.get();
        long transmissions = 0;
        int sent = 0;
        try {
            for (; sent < count; sent++) {
                byte[] payload = CheckedPayload.create(first + sent, size);
                transmissions += socket.send(serviceId == null ? socket.createMessage(mode, to, payload)
                        : socket.createMessage(mode, to, payload, serviceId));
                nextSeq.set(first + sent + 1);
            }
        } catch (RuntimeException e) {
            lines.emit("ERR " + name + ": after " + sent + " of " + count + ": " + e.getMessage());
            return;
        }
        lines.emit("SENT " + mode + " " + count + " " + first + " " + (first + count - 1) + " " + transmissions);
    }

    // ---------------------------------------------------------------------------------- statistics

    private Map<String, Object> statistics() {
        OverlayStatistics s = socket.statistics();
        ForwardingStatistics f = s.forwarding();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("address", token(socket.localAddress()));
        m.put("state", s.state().name());
        m.put("neighbours", s.neighbours());
        Map<String, Object> fwd = new LinkedHashMap<>();
        fwd.put("received", f.received());
        fwd.put("originated", f.originated());
        fwd.put("delivered", f.delivered());
        fwd.put("transmissions", f.transmissions());
        fwd.put("toStore", f.toStore());
        Map<String, Long> drops = new TreeMap<>();
        f.drops().forEach((cause, n) -> drops.put(cause.name(), n));
        fwd.put("drops", drops);
        m.put("forwarding", fwd);
        m.put("node", new TreeMap<>(s.node()));
        m.put("queued", s.queued());
        m.put("sent", nextSeq.get());
        m.put("received", tally.snapshot());
        m.put("outputLinesDropped", lines.dropped());
        // receive drops by cause, among them frames refused by frame authentication (rx.dropped.auth_*)
        m.put("adapter", socket.adapter().metrics().snapshot());
        m.put("interfaces", interfaceStatistics());
        if (socket.messageStore() instanceof io.statecast.messagestore.MessageStore store) {
            m.put("messageStore", store.metrics());
        }
        return m;
    }

    /** Each substrate interface's counters (frames, bytes, drops by cause, connections) by scheme. */
    private Map<String, Object> interfaceStatistics() {
        Map<String, Object> interfaces = new TreeMap<>();
        for (SubstrateInterface i : socket.adapter().interfaces()) {
            interfaces.put(i.scheme().uriScheme(), i.metrics().snapshot());
        }
        return interfaces;
    }

    /** Status writer thread: rewrites the file when anything in it changed since the last write. */
    private void writeStatus(boolean stopped) {
        try {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pid", ProcessHandle.current().pid());
            m.put("substrate", socket.substrateAddresses().stream().map(SubstrateAddress::toString).toList());
            m.put("joined", joined);
            m.put("stopped", stopped);
            m.put("neighbourAddresses", socket.neighbours().stream().map(NodeRunner::token).sorted().toList());
            m.putAll(statistics());
            String text = toJson(m);
            if (!text.equals(lastStatus)) {
                status.write(text);
                lastStatus = text;
            }
        } catch (IOException | RuntimeException e) {
            if (statusFailed.compareAndSet(false, true)) {
                LOG.warn("cannot write status file {}: {} (further failures not logged)", status.path(), e.toString());
            }
        }
    }

    private String toJson(Map<String, Object> m) {
        try {
            return json.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("statistics are plain maps of strings and numbers", e);
        }
    }
}
