package io.statecast.it.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs ttcp experiments on a {@link Chain}: one {@code statecast ttcp} process per namespace,
 * node 1 sending, nodes 2..hops+1 receiving, each with its own generated configuration; collects
 * their JSON reports and judges them with {@link Criteria}. Every process it starts is stopped
 * before a run returns, however the run ends.
 */
final class Testbed {

    /**
     * Knobs of every run.
     *
     * @param node             overlay node type ({@code TREE} or {@code DT})
     * @param messageStoreYaml the {@code overlay.messageStore} section for runs with a service, or null
     * @param idleSeconds      receivers finish after this long without data
     * @param lingerSeconds    receivers stay up this long after finishing, waiting for FIN
     * @param criteria         when a rate is sustainable
     */
    record Settings(String node, String messageStoreYaml, double idleSeconds, double lingerSeconds, Criteria criteria) {

        static Settings defaults() {
            return new Settings("TREE", null, 5, 15, Criteria.DEFAULT);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The sender's pause between warm-up and run ({@code --warmup-ms}), per node process, after
     * every receiver reported the whole warm-up ({@link #WARMUP_WAIT_SECONDS}): the instances of
     * the warm-up's last seconds expire (h2h-ack keeps a finished one 6 s) and every node's
     * collection after it (0.1-0.7 s each, six JVMs on two cores) ends before measuring starts.
     * A fixed 2 s left the 5-hop chain's far nodes up to 0.9 s behind when measuring started.
     */
    static final long WARMUP_PAUSE_MS_PER_NODE = 1_000;
    /**
     * The longest the sender waits after the warm-up until every receiver has all of it
     * ({@code --warmup-wait}): at 5 hops a service's recovery of the warm-up's losses took up to
     * several seconds, and when it ran into the measured run the far nodes started behind.
     */
    static final long WARMUP_WAIT_SECONDS = 60;
    /**
     * The wait ends earlier once no receiver gained a warm-up message this long
     * ({@code --warmup-quiet}): longer than a round of e2e-ack's repairs (an ACK Request every
     * 2 s), and than h2h-ack takes to give up on a message (5 s without acknowledgements).
     */
    static final long WARMUP_QUIET_SECONDS = 5;
    /** The sender's pause between warm-up and run on a chain of {@code hops}: 2 s at 1 hop, 6 s at 5. */
    static long warmupPauseMs(int hops) {
        return WARMUP_PAUSE_MS_PER_NODE * (hops + 1);
    }

    /** Tries of a run whose nodes failed to start ({@link #nodeFailedToStart}). */
    private static final int START_ATTEMPTS = 3;
    /** Longest wait for one node process with a service to load it ({@link #awaitStarted}). */
    private static final long START_WAIT_SECONDS = 30;

    private final Chain chain;
    private final Launcher launcher;
    private final Path out;
    private final Settings settings;
    private final PrintStream log;
    /** Node processes running now, so a shutdown hook can stop them ({@link #stopAll}). */
    private final Set<Process> live = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    Testbed(Chain chain, Launcher launcher, Path out, Settings settings, PrintStream log) {
        this.chain = Objects.requireNonNull(chain, "chain");
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.out = Objects.requireNonNull(out, "out");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * Runs one experiment on the chain (which must have at least {@code hops + 1} nodes).
     *
     * @throws IOException if a process cannot be started or its files written
     */
    RunResult run(Experiment e) throws IOException, InterruptedException {
        return run(e, settings.messageStoreYaml());
    }

    /**
     * Runs one experiment with {@code messageStoreYaml} as every node's {@code messageStore}
     * section (when the experiment has a service): each service loads its own spec.
     *
     * @throws IOException if a process cannot be started or its files written
     */
    RunResult run(Experiment e, String messageStoreYaml) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            RunResult r = runOnce(e, messageStoreYaml);
            if (attempt >= START_ATTEMPTS || !nodeFailedToStart(r)) {
                return r;
            }
            // keep the failed attempt's logs beside the next one's
            for (int i = 1; i <= e.hops() + 1; i++) {
                Path logFile = r.dir().resolve("n" + i + ".log");
                if (Files.exists(logFile)) {
                    Files.move(logFile, r.dir().resolve("n" + i + ".attempt" + attempt + ".log"), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            log.printf(Locale.ROOT, "testbed: %s: a node failed before any data was sent (%s); starting it again (attempt %d of %d)%n",
                    e.name(), r.verdict(), attempt + 1, START_ATTEMPTS);
        }
    }

    /**
     * Whether a run failed before it measured anything because a node process could not start:
     * the sender sent nothing, and it or a receiver ended with an error (status 1) without a report. On
     * the shared cores a node's spec load can overrun the MessageStore's load deadline while five
     * other JVMs start; that says nothing about the rate under test, so such a run is repeated.
     */
    static boolean nodeFailedToStart(RunResult r) {
        boolean nothingSent = r.sender() == null || r.sender().path("sent").asInt(0) == 0;
        boolean senderError = r.senderExit() == 1 && r.sender() == null;
        boolean receiverError = r.receivers().stream().anyMatch(rc -> rc.exit() == 1 && rc.summary() == null);
        return nothingSent && (senderError || receiverError);
    }

    private RunResult runOnce(Experiment e, String messageStoreYaml) throws IOException, InterruptedException {
        if (chain.nodes() < e.hops() + 1) {
            throw new IllegalStateException("chain has " + chain.nodes() + " nodes; " + e.hops() + " hops need " + (e.hops() + 1));
        }
        Path dir = out.resolve(e.name());
        Files.createDirectories(dir);
        for (int i = 1; i <= e.hops() + 1; i++) {
            Files.deleteIfExists(dir.resolve("n" + i + ".json"));
            NodeConfigs.write(dir, i, settings.node(), e.serviceId() == null ? null : messageStoreYaml);
        }
        log.printf(Locale.ROOT, "testbed: %s: %d hop(s), %s Mbit/s (%.0f msgs/s), %d x %d B, service %s, loss %d%%%n",
                e.name(), e.hops(), e.rateLabel(), e.messagesPerSecond(), e.count(), e.size(), e.service(), e.lossPercent());
        double sendSeconds = Double.isInfinite(e.messagesPerSecond()) ? 30 : (e.count() + e.warmupMessages()) / e.messagesPerSecond();
        long deadlineSeconds = (long) (120 + WARMUP_WAIT_SECONDS + 3 * sendSeconds + settings.idleSeconds() + settings.lingerSeconds());
        long started = System.nanoTime();
        List<Process> receivers = new ArrayList<>();
        Process sender = null;
        try {
            // the furthest first: each node's buddy is its left neighbour, so order does not
            // matter for the overlay, and the sender waits for every receiver anyway
            for (int i = e.hops() + 1; i >= 2; i--) {
                receivers.add(start(dir, i, List.of("ttcp", "recv", "--config", dir.resolve("n" + i + ".yaml").toString(),
                        "--count", String.valueOf(e.count()), "--idle", num(settings.idleSeconds()),
                        "--linger", num(settings.lingerSeconds()), "--start-timeout", String.valueOf(deadlineSeconds),
                        "--json", dir.resolve("n" + i + ".json").toString())));
                if (e.serviceId() != null) {
                    awaitStarted(receivers.get(receivers.size() - 1), dir.resolve("n" + i + ".log"));
                }
            }
            List<String> send = new ArrayList<>(List.of("ttcp", "send", "--config", dir.resolve("n1.yaml").toString(),
                    "--count", String.valueOf(e.count()), "--size", String.valueOf(e.size()),
                    "--wait-for", String.valueOf(e.hops()), "--wait-timeout", "90",
                    "--warmup-messages", String.valueOf(e.warmupMessages()), "--warmup-wait", String.valueOf(WARMUP_WAIT_SECONDS),
                    "--warmup-quiet", String.valueOf(WARMUP_QUIET_SECONDS),
                    "--warmup-ms", String.valueOf(warmupPauseMs(e.hops())),
                    "--linger", num(settings.idleSeconds() + 20),
                    "--service", e.serviceId() == null ? "none" : String.valueOf(e.serviceId()),
                    "--json", dir.resolve("n1.json").toString()));
            if (!Double.isInfinite(e.rateMbps())) {
                send.addAll(List.of("--rate-mbps", num(e.rateMbps())));
            }
            LinkUsage linkBefore = chain.linkUsage(1);
            sender = start(dir, 1, send);
            long deadline = started + TimeUnit.SECONDS.toNanos(deadlineSeconds);
            int senderExit = await(sender, deadline);
            LinkUsage firstLink = chain.linkUsage(1).since(linkBefore);
            // receivers end on FIN; give the slow ones their idle and linger time, no more
            long receiversDeadline = Math.min(deadline, System.nanoTime()
                    + TimeUnit.MILLISECONDS.toNanos((long) (1000 * (settings.idleSeconds() + settings.lingerSeconds() + 10))));
            List<RunResult.Receiver> results = new ArrayList<>();
            for (int k = receivers.size() - 1; k >= 0; k--) {
                int node = e.hops() + 1 - k;
                int exit = await(receivers.get(k), receiversDeadline);
                results.add(new RunResult.Receiver(node, exit, summary(dir.resolve("n" + node + ".json"))));
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            RunResult provisional = new RunResult(e, dir, senderExit, summary(dir.resolve("n1.json")), List.copyOf(results),
                    false, "", seconds);
            List<String> why = settings.criteria().failures(provisional);
            RunResult r = new RunResult(e, dir, senderExit, provisional.sender(), provisional.receivers(), why.isEmpty(),
                    why.isEmpty() ? "sustainable" : String.join("; ", why), seconds, firstLink);
            String canary = r.canaryLine();
            log.printf(Locale.ROOT, "testbed: %s: %s — sent %.0f msgs/s, first link %.0f B/msg, %.1f Mbit/s, worst p99 %.1f ms, "
                    + "worst slope %.2f ms/s, missing %d (%.0f s); CPU µs/msg per node %s%s%s%s%n", e.name(), r.verdict(),
                    r.achievedMessagesPerSecond(), r.linkBytesPerMessage(), r.linkLoadMbps(), r.worst("delayMsP99"),
                    r.worst("delaySlopeMsPerS"), r.totalMissing(), seconds, cpuLine(r.cpuMicrosPerMessage()),
                    canary.isEmpty() ? "" : "; " + canary,
                    r.warmupWait().isEmpty() ? "" : "; " + r.warmupWait(),
                    r.warmupShortfall().isEmpty() ? "" : "; warm-up messages received: " + r.warmupShortfall());
            return r;
        } finally {
            if (sender != null) {
                stop(sender);
            }
            receivers.forEach(this::stop);
        }
    }

    /** "a / b / … (sum s)" with one decimal; nodes without a figure are "?". */
    static String cpuLine(double[] perNode) {
        StringBuilder b = new StringBuilder();
        for (double v : perNode) {
            if (b.length() > 0) {
                b.append(" / ");
            }
            b.append(Double.isNaN(v) ? "?" : String.format(Locale.ROOT, "%.1f", v));
        }
        double sum = RunResult.sumKnown(perNode);
        return b.append(String.format(Locale.ROOT, " (sum %.1f)", Double.isNaN(sum) ? 0 : sum)).toString();
    }

    /** Stops every node process still running (for a shutdown hook: the JVM does not do it). */
    void stopAll() {
        synchronized (this) {
            stopping = true; // no start() after this one
        }
        for (Process p : List.copyOf(live)) {
            stop(p);
        }
    }

    private synchronized Process start(Path dir, int node, List<String> args) throws IOException {
        if (stopping) {
            throw new IOException("the testbed is shutting down; not starting node " + node);
        }
        List<String> cmd = new ArrayList<>(List.of(TestbedEnvironment.tool("ip"), "netns", "exec", chain.namespace(node)));
        cmd.addAll(launcher.prefix());
        cmd.addAll(args);
        Path output = dir.resolve("n" + node + ".log");
        Files.writeString(output, "$ " + String.join(" ", cmd) + "\n");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        pb.environment().putAll(launcher.environment());
        Process p = pb.start();
        live.add(p);
        return p;
    }

    /**
     * Waits until a node process with a service has loaded it (or joined, or ended), at most
     * {@link #START_WAIT_SECONDS}. Node processes with a MessageStore are started one after the
     * other: the store compiles its spec under a fixed 5-second deadline, which six JVMs
     * starting at once on two shared cores overrun.
     */
    private static void awaitStarted(Process p, Path logFile) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_WAIT_SECONDS);
        while (p.isAlive() && System.nanoTime() < deadline) {
            String text = Files.readString(logFile);
            if (text.contains("loaded service") || text.contains("joined as")) {
                return;
            }
            p.waitFor(100, TimeUnit.MILLISECONDS);
        }
    }

    /** Waits for {@code p} until {@code deadline}; a process still running then is stopped and gets -1. */
    private int await(Process p, long deadline) throws InterruptedException {
        long left = deadline - System.nanoTime();
        if (left > 0 && p.waitFor(left, TimeUnit.NANOSECONDS)) {
            live.remove(p);
            return p.exitValue();
        }
        stop(p);
        return -1;
    }

    /** Stops a process this testbed started (by its handle): TERM, then KILL after five seconds. */
    private void stop(Process p) {
        live.remove(p);
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException ie) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static JsonNode summary(Path json) {
        if (!Files.isRegularFile(json)) {
            return null;
        }
        try {
            JsonNode root = JSON.readTree(json.toFile());
            JsonNode s = root.get("summary");
            return s != null && s.isObject() ? s : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
