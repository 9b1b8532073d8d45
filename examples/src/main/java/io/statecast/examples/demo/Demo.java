package io.statecast.examples.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.Pacer;
import io.statecast.examples.ttcp.StoreProbe;
import io.statecast.examples.ttcp.TtcpReceiver;
import io.statecast.examples.ttcp.TtcpReport;
import io.statecast.examples.ttcp.TtcpPayload;
import io.statecast.examples.ttcp.TtcpSender;
import io.statecast.messagestore.MessageStore;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.sim.DelaunayCheck;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlayConfigException;
import io.statecast.overlay.socket.OverlayJoinException;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.specserver.MessageStoreSpecCheck;
import io.statecast.specserver.SpecServer;
import io.statecast.specserver.SpecServerClient;
import io.statecast.specserver.SpecServerClientException;
import io.statecast.specserver.SpecServerConfig;
import io.statecast.specserver.SpecServerException;
import io.statecast.specserver.SpecServerLimits;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * One demo run: an embedded spec server, {@code nodes} overlay sockets on UDP loopback forming a
 * DT overlay, each losing {@code loss} of its input; node 1 loads the service itself and publishes
 * it, the others download it from the server when its first message arrives. Node 1 runs a
 * {@link TtcpSender}, every other node a {@link TtcpReceiver}, so the measurements are ttcp's.
 */
public final class Demo {

    /** Exit status when a promise of the service did not hold, or the demo could not run (the work failed). */
    public static final int EXIT_FAILED = 1;

    private static final long FORM_TIMEOUT_MS = 60_000;
    private static final long SAMPLE_MS = 100;
    /**
     * The sender stays at most this many messages ahead of the slowest receiver: at the default
     * rate 0.4 s of messages, far more than a quiet machine has in flight.
     */
    private static final int LEAD_MESSAGES = 200;
    /**
     * ... and at most half a second of the slowest receiver's measured rate: on a machine too
     * busy for the set rate, queues stay far short of the services' give-up timers (h2h-ack's 5 s).
     */
    private static final long LEAD_MS = 500;
    /**
     * How long the embedded spec server may take to check the published spec (its default is
     * 10 s): the demo's one upload, on a machine so busy that the cold check of h2h-ack took
     * longer than that. Loading stays bounded by its CPU budget.
     */
    private static final Duration SERVER_PROCESSING = Duration.ofMinutes(2);
    /** A receiver that gains nothing for this long no longer holds the sender back. */
    private static final long LEAD_STALL_MS = 5_000;
    /** The pacer wakes once per millisecond at most, as ttcp's default ({@code --tick-us}). */
    private static final long TICK_MICROS = 1_000;

    /**
     * The outcome.
     *
     * @param exitCode 0 if every receiver got what the service promised; {@link #EXIT_FAILED} if not
     * @param report   the JSON report (as written to {@link DemoOptions#json()})
     * @param charts   the chart files written
     * @param log      the file holding every node's progress lines
     */
    public record Result(int exitCode, ObjectNode report, List<Path> charts, Path log) {
    }

    private final DemoOptions options;
    private final PrintWriter out;
    private final boolean terminal;

    /**
     * @param options  what to run
     * @param out      progress, table and paths
     * @param terminal whether {@code out} is a terminal (the progress bar redraws in place)
     */
    public Demo(DemoOptions options, PrintWriter out, boolean terminal) {
        this.options = Objects.requireNonNull(options, "options");
        this.out = Objects.requireNonNull(out, "out");
        this.terminal = terminal;
    }

    /**
     * Runs the demo and writes the report and charts.
     *
     * @throws DemoException        if the server, the service or the overlay could not be set up
     * @throws InterruptedException if interrupted
     */
    public Result run() throws DemoException, InterruptedException {
        long startNanos = System.nanoTime();
        Path log = logFile();
        Path specDir;
        try {
            specDir = Files.createTempDirectory("statecast-demo-specs-");
        } catch (IOException e) {
            throw new DemoException("cannot create the spec server's directory: " + e.getMessage(), e);
        }
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        int maxSpecBytes = SpecServerLimits.DEFAULTS.maxSpecBytes();
        List<OverlaySocket> sockets = new ArrayList<>();
        List<LossyUdp> substrates = new ArrayList<>();
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "statecast-demo-node");
            t.setDaemon(true);
            return t;
        });
        try (PrintWriter nodeLog = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
                MessageStoreSpecCheck check = new MessageStoreSpecCheck(maxSpecBytes);
                SpecServer server = SpecServer.start(SpecServerConfig.secured(specDir, token)
                        .withLimits(SpecServerLimits.DEFAULTS.withProcessingTimeout(SERVER_PROCESSING)), check);
                RealTimerService faultTimers = new RealTimerService("statecast-demo-faults")) {
            DemoService service = DemoService.resolve(options.service(), check, maxSpecBytes);
            out.printf("statecast demo: spec server at %s (token-protected writes, storage %s)%n", server.baseUri(), specDir);
            publish(server, token, service);
            out.printf("statecast demo: %d nodes on UDP loopback, %.1f %% loss at every node's input (seed %d), service %s%n",
                    options.nodes(), options.loss() * 100, options.seed(), service.describe());
            openSockets(server, service, faultTimers, sockets, substrates);
            long formStart = System.nanoTime();
            formOverlay(sockets);
            long formMs = (System.nanoTime() - formStart) / 1_000_000;
            out.printf("statecast demo: DT overlay formed in %.1f s: %s%n", formMs / 1e3,
                    sockets.stream().map(s -> s.localAddress().toString()).collect(Collectors.joining(" ")));
            long distributeMs = distribute(sockets, service);
            out.printf("statecast demo: node 1 multicasts %,d messages of %,d bytes at %,.0f msgs/s (%.2f Mbit/s)%n",
                    options.messages(), options.size(), options.rate(), options.rate() * options.size() * 8 / 1e6);

            Runs runs = startRuns(sockets, service, pool, nodeLog);
            long sendStart = System.nanoTime();
            watch(runs, sendStart);
            TtcpSender.Result sent = get(runs.senderResult, "node 1 (sender)");
            List<TtcpReceiver.Result> received = new ArrayList<>();
            for (int i = 0; i < runs.receiverResults.size(); i++) {
                received.add(get(runs.receiverResults.get(i), "node " + (i + 2)));
            }
            long runMs = (System.nanoTime() - sendStart) / 1_000_000;

            List<DemoReport.NodeOutcome> nodes = new ArrayList<>();
            for (int i = 0; i < sockets.size(); i++) {
                OverlaySocket s = sockets.get(i);
                nodes.add(new DemoReport.NodeOutcome(i + 1, s.localAddress().toString(), s.substrateAddresses().get(0).toString(),
                        i == 0 ? sent.report() : received.get(i - 1).report(), runs.probes.get(i).snapshot(),
                        runs.probes.get(i).drops(), substrates.get(i).stats(), serviceLoaded(s, service)));
            }
            long elapsedMs = (System.nanoTime() - startNanos) / 1_000_000;
            ObjectNode report = DemoReport.build(options, service, server.baseUri().toString(), formMs, distributeMs, runMs,
                    elapsedMs, nodes, sent.report());
            JsonNode totals = report.get("totals");
            int missing = totals.get("missing").asInt();
            DemoVerdict verdict = DemoVerdict.of(service, missing, totals.get("duplicates").asLong(),
                    totals.get("corrupt").asLong());
            int exit = verdict.passed() ? 0 : EXIT_FAILED;
            verdict.broken().forEach(report.putArray("brokenPromises")::add);
            report.put("exitCode", exit);
            write(report);
            for (DemoReport.NodeOutcome n : nodes) {
                // every node's full ttcp report (per-message columns, samples over time) beside the summary
                TtcpReport.write((ObjectNode) n.ttcp(), options.json().toAbsolutePath().resolveSibling("node-" + n.index() + ".json"));
            }
            List<Path> charts = DemoCharts.write(options.charts(), sent.report(),
                    received.stream().<JsonNode>map(TtcpReceiver.Result::report).toList(), nodes);
            DemoReport.printTable(out, report);
            out.printf("statecast demo: report %s%n", options.json().toAbsolutePath());
            for (Path c : charts) {
                out.printf("statecast demo: chart  %s%n", c.toAbsolutePath());
            }
            out.printf("statecast demo: node log %s%n", log.toAbsolutePath());
            for (String b : verdict.broken()) {
                out.printf("statecast demo: FAILED: %s%n", b);
            }
            if (verdict.passed() && missing > 0) {
                out.printf("statecast demo: %,d deliveries missing; %s does not promise every message%n", missing,
                        service.describe());
            }
            return new Result(exit, report, charts, log);
        } catch (IOException e) {
            throw new DemoException("demo I/O failed: " + e.getMessage(), e);
        } catch (SpecServerException e) {
            throw new DemoException("the embedded spec server did not start: " + e.getMessage(), e);
        } finally {
            sockets.forEach(OverlaySocket::close);
            pool.shutdownNow();
            deleteTree(specDir);
        }
    }

    private Path logFile() throws DemoException {
        Path json = options.json().toAbsolutePath();
        try {
            Files.createDirectories(json.getParent());
            Files.createDirectories(options.charts());
        } catch (IOException e) {
            throw new DemoException("cannot create the output directories: " + e.getMessage(), e);
        }
        return json.resolveSibling("nodes.log");
    }

    private void publish(SpecServer server, String token, DemoService service) throws DemoException {
        if (service.serviceId() == null) {
            return;
        }
        SpecServerClient.Options defaults = SpecServerClient.Options.DEFAULTS;
        SpecServerClient client = new SpecServerClient(server.baseUri(), Optional.of(token), new SpecServerClient.Options(
                defaults.connectTimeout(), SERVER_PROCESSING.plusSeconds(30), defaults.maxResponseBytes()));
        try {
            client.put(service.serviceId(), service.document(), Optional.empty());
        } catch (SpecServerClientException e) {
            throw new DemoException("publishing " + service.describe() + " to the spec server failed: " + e.getMessage(), e);
        }
        out.printf("statecast demo: published %s to the spec server%n", service.describe());
    }

    /** Node 1 first: the others name it as their buddy. */
    private void openSockets(SpecServer server, DemoService service, RealTimerService faultTimers, List<OverlaySocket> sockets,
            List<LossyUdp> substrates) throws DemoException {
        String overlayId = "statecast-demo-" + Long.toHexString(options.seed());
        String buddy = null;
        for (int i = 0; i < options.nodes(); i++) {
            ObjectNode root = TtcpReport.JSON.createObjectNode();
            ObjectNode o = root.putObject("overlay");
            o.put("id", overlayId);
            o.put("node", "DT");
            o.putArray("interfaces").add("udp://127.0.0.1:0");
            ArrayNode buddies = o.putArray("buddies");
            if (buddy != null) {
                buddies.add(buddy);
            }
            // fast heartbeats while forming, so the overlay forms in a second or two; the default timeout
            // (40 slow heartbeats) rides out lost beacons and a busy machine's scheduling stalls
            o.putObject("heartbeat").put("fastMs", 100).put("slowMs", 250).put("timeoutMs", 10_000).put("stableAfter", 4);
            o.putObject("rendezvous").put("iAmHereMs", 500);
            o.putObject("buffers").put("receiveQueueMessages", Math.max(1024, Math.min(1_000_000, options.messages() * 2)));
            o.putObject("join").put("timeoutMs", FORM_TIMEOUT_MS);
            if (service.serviceId() != null) {
                ObjectNode ms = o.putObject("messageStore");
                ms.put("shards", 1);
                ms.put("dataQueueCapacity", Math.max(10_000, Math.min(1_000_000, options.messages())));
                ms.putObject("unknownService").put("holdMessages", 100_000).put("holdMs", 30_000);
                ms.putObject("specServer").put("uri", server.baseUri().toString());
                if (i == 0) {
                    ms.putArray("services").add(service.uri().toString());
                }
            }
            LossyUdp substrate = new LossyUdp(options.loss(), options.seed() * 1_000_003L + i, faultTimers, 65_536);
            try {
                OverlaySocket s = OverlaySocket.builder(OverlayConfig.parse(root.toString()))
                        .substrateFactory(substrate)
                        .random(new SplittableRandom(options.seed() + 7_919L * i))
                        .build();
                sockets.add(s);
                substrates.add(substrate);
                if (buddy == null) {
                    buddy = s.substrateAddresses().get(0).toString();
                }
            } catch (OverlayConfigException | IOException e) {
                throw new DemoException("node " + (i + 1) + " did not start: " + e.getMessage(), e);
            }
        }
    }

    /** Joins every node and waits until all are STABLE and their neighbour graph is the Delaunay triangulation. */
    private static void formOverlay(List<OverlaySocket> sockets) throws DemoException, InterruptedException {
        try {
            sockets.get(0).join();
            List<CompletableFuture<Void>> joins = new ArrayList<>();
            for (OverlaySocket s : sockets.subList(1, sockets.size())) {
                joins.add(s.joinAsync());
            }
            CompletableFuture.allOf(joins.toArray(CompletableFuture[]::new)).get(FORM_TIMEOUT_MS + 5_000, TimeUnit.MILLISECONDS);
        } catch (OverlayJoinException e) {
            throw new DemoException("node 1 did not found the overlay: " + e.getMessage(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new DemoException("the nodes did not join: " + (e.getCause() != null ? e.getCause().getMessage() : e), e);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FORM_TIMEOUT_MS);
        String why = "";
        while (System.nanoTime() < deadline) {
            why = notFormed(sockets);
            if (why == null) {
                return;
            }
            Thread.sleep(50); // polling a condition with a deadline: the overlay has no "formed" event
        }
        throw new DemoException("the DT overlay did not settle within " + FORM_TIMEOUT_MS + " ms: " + why);
    }

    /**
     * Lets every node fetch the service before the measured run: node 1 multicasts a warm-up
     * message with it (receivers discard warm-ups) until every store has it, so the run's delays
     * measure the service, not the download. The download is the nodes' own, on demand, from the
     * spec server; this only triggers it.
     *
     * @return how long it took, in milliseconds (0 for best-effort)
     */
    private long distribute(List<OverlaySocket> sockets, DemoService service) throws DemoException, InterruptedException {
        if (service.serviceId() == null) {
            return 0;
        }
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(FORM_TIMEOUT_MS);
        long nextSend = start;
        int sent = 0;
        while (true) {
            List<Integer> lacking = new ArrayList<>();
            for (int i = 0; i < sockets.size(); i++) {
                if (!"loaded".equals(serviceLoaded(sockets.get(i), service))) {
                    lacking.add(i + 1);
                }
            }
            long now = System.nanoTime();
            if (lacking.isEmpty()) {
                long ms = (now - start) / 1_000_000;
                out.printf("statecast demo: every node has %s after %.1f s (%d downloaded it from the spec server)%n",
                        service.name(), ms / 1e3, sockets.size() - 1);
                return ms;
            }
            if (now > deadline) {
                throw new DemoException("nodes " + lacking + " did not get " + service.describe() + " from the spec server within "
                        + FORM_TIMEOUT_MS + " ms");
            }
            if (now >= nextSend) {
                sockets.get(0).sendToAll(serviceProbe(sent++, options.size()), service.serviceId());
                nextSend = now + TimeUnit.SECONDS.toNanos(1);
            }
            Thread.sleep(20); // polling the stores with a deadline: a download has no completion event here
        }
    }

    /**
     * Probe number {@code seq} of the service's distribution: a WARMUP payload, which receivers
     * discard, sent until every node has the service, so their count is not known in advance. The
     * largest count keeps every probe well formed (seq below count) and none the warm-up's last,
     * which would make each receiver collect garbage.
     */
    static byte[] serviceProbe(int seq, int size) {
        return TtcpPayload.warmup(seq, Integer.MAX_VALUE, 0, size);
    }

    /** Why the overlay is not formed yet, or {@code null} if it is. */
    private static String notFormed(List<OverlaySocket> sockets) {
        List<DtAddress> points = new ArrayList<>();
        Map<DtAddress, Set<DtAddress>> graph = new HashMap<>();
        for (OverlaySocket s : sockets) {
            if (s.state() != NodeState.STABLE) {
                return s.localAddress() + " is " + s.state();
            }
            DtAddress p = (DtAddress) s.localAddress();
            points.add(p);
            Set<DtAddress> ns = new java.util.HashSet<>();
            for (LogicalAddress n : s.neighbours()) {
                ns.add((DtAddress) n);
            }
            graph.put(p, ns);
        }
        DelaunayCheck.Result r = DelaunayCheck.check(points, graph);
        return r.matches() ? null : "neighbours are not the Delaunay triangulation yet: " + r.problem();
    }

    /** The running sender and receivers. */
    private record Runs(TtcpSender sender, Future<TtcpSender.Result> senderResult, List<TtcpReceiver> receivers,
            List<Future<TtcpReceiver.Result>> receiverResults, List<StoreProbe> probes) {
    }

    private Runs startRuns(List<OverlaySocket> sockets, DemoService service, ExecutorService pool, PrintWriter nodeLog) {
        List<StoreProbe> probes = sockets.stream().map(s -> StoreProbe.of(s.messageStore())).toList();
        List<TtcpReceiver> receivers = new ArrayList<>();
        List<Future<TtcpReceiver.Result>> results = new ArrayList<>();
        TtcpReceiver.Options ro = new TtcpReceiver.Options(options.messages(), options.idleMs(), FORM_TIMEOUT_MS, 15_000, 200,
                SAMPLE_MS);
        for (int i = 1; i < sockets.size(); i++) {
            TtcpReceiver r = new TtcpReceiver(sockets.get(i), ro, probes.get(i), nodeLog);
            receivers.add(r);
            results.add(pool.submit(r::run));
        }
        long lingerMs = 60_000 + (long) (options.messages() / options.rate() * 1000);
        TtcpSender.Options so = new TtcpSender.Options(options.messages(), options.size(), options.rate(),
                Pacer.defaultBurst(options.rate()), TICK_MICROS, service.serviceId(), sockets.size() - 1, FORM_TIMEOUT_MS, 0, 200,
                Math.min(lingerMs, TimeUnit.HOURS.toMillis(1)), SAMPLE_MS, true);
        TtcpSender sender = new TtcpSender(sockets.get(0), so, probes.get(0), nodeLog)
                .lead(new TtcpSender.Lead(() -> receivers.stream().mapToLong(TtcpReceiver::received).min().orElse(0),
                        LEAD_MESSAGES, LEAD_MS, Math.min(options.idleMs(), LEAD_STALL_MS)));
        Future<TtcpSender.Result> sent = pool.submit(sender::run);
        return new Runs(sender, sent, receivers, results, probes);
    }

    /** Draws progress until the sender and every receiver have finished. */
    private void watch(Runs runs, long sendStart) throws InterruptedException {
        Progress progress = new Progress(out, terminal, 2_000);
        long expected = (long) options.messages() * runs.receivers.size();
        while (true) {
            boolean done = runs.senderResult.isDone() && runs.receiverResults.stream().allMatch(Future::isDone);
            long delivered = runs.receivers.stream().mapToLong(TtcpReceiver::received).sum();
            double seconds = (System.nanoTime() - sendStart) / 1e9;
            if (done) {
                progress.finish(runs.sender.sent(), options.messages(), delivered, expected, seconds);
                return;
            }
            progress.update(runs.sender.sent(), options.messages(), delivered, expected, seconds);
            Thread.sleep(terminal ? 100 : 250); // a display refresh, not a wait for a result
        }
    }

    private static <T> T get(Future<T> f, String who) throws DemoException, InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw new DemoException(who + " failed: " + c, c);
        }
    }

    private static String serviceLoaded(OverlaySocket s, DemoService service) {
        if (service.serviceId() == null) {
            return null;
        }
        if (s.messageStore() instanceof MessageStore ms) {
            return ms.services().containsKey(service.serviceId()) ? "loaded" : "not loaded";
        }
        return "no store";
    }

    private void write(ObjectNode report) throws IOException {
        TtcpReport.write(report, options.json());
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a temporary directory left behind is harmless
                }
            });
        } catch (IOException e) {
            // same
        }
    }
}
