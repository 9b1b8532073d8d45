package io.statecast.examples.ttcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.socket.OverlayJoinException;
import io.statecast.overlay.socket.OverlaySocket;
import java.io.PrintWriter;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The receiving side of ttcp: joins, multicasts HELLO every {@code helloMs} until warm-up or data
 * messages arrive, then (until the run's first DATA) WARMED with how much of the warm-up it has,
 * records every DATA message's send and receive time, and finishes when it has every
 * message, after {@code idleMs} without data, or on the sender's FIN. After finishing it keeps
 * the node up — forwarding for nodes further down the chain, answering a reliable service's
 * repairs — multicasting DONE until the sender's FIN or {@code lingerMs}.
 */
public final class TtcpReceiver {

    /**
     * How to receive.
     *
     * @param expectedCount  messages expected if none arrives (the run's count, carried by every
     *                       DATA, wins once one does); 0 if unknown
     * @param idleMs         finish after this long without data
     * @param startTimeoutMs give up if no data arrives this long after joining
     * @param lingerMs       after finishing, stay up at most this long waiting for FIN
     * @param helloMs        interval of HELLO, WARMED and DONE announcements
     * @param sampleMs       sampling period of heap, queues and store metrics
     */
    public record Options(int expectedCount, long idleMs, long startTimeoutMs, long lingerMs, long helloMs, long sampleMs) {

        /** Checks ranges. */
        public Options {
            if (expectedCount < 0 || expectedCount > ReceiveLog.MAX_COUNT) {
                throw new IllegalArgumentException("--count=" + expectedCount + " must be within 0.." + ReceiveLog.MAX_COUNT);
            }
            range("--idle", idleMs, 1, TimeUnit.DAYS.toMillis(1));
            range("--start-timeout", startTimeoutMs, 1, TimeUnit.DAYS.toMillis(1));
            range("--linger", lingerMs, 0, TimeUnit.DAYS.toMillis(1));
            range("--hello-ms", helloMs, 10, 60_000);
            range("--sample-ms", sampleMs, 10, 60_000);
        }

        private static void range(String name, long v, long min, long max) {
            if (v < min || v > max) {
                throw new IllegalArgumentException(name + "=" + v + " ms must be within " + min + ".." + max);
            }
        }
    }

    /**
     * The outcome.
     *
     * @param exitCode 0 if every message arrived intact; 1 if some are missing or corrupt, or no
     *                 data arrived at all (the report's {@code outcome} says which)
     * @param report   the JSON report
     */
    public record Result(int exitCode, ObjectNode report) {
    }

    private enum Phase { WAITING, RECEIVING, FINISHED }

    private static final int MAX_MISSING_RANGES = 1_000;

    private final OverlaySocket socket;
    private final Options options;
    private final StoreProbe probe;
    private final PrintWriter out;
    private final EpochClock clock = EpochClock.system();
    /** Index of the warm-up's log, clock and last arrival in {@link #logs}, {@link #cpus}, {@link #lastNanos}. */
    private static final int WARMUP = 0;
    /** Index of the measured run's. */
    private static final int MEASURED = 1;
    /** Times kept of the warm-up's messages (the rest only counted). */
    private static final int WARMUP_COLUMNS = 1_024;
    private static final long HOUSEKEEPING_MS = 20;
    /** Silence in the warm-up after which the receiver collects garbage (see housekeeping). */
    private static final long WARMUP_SILENCE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final ReceiveLog log = new ReceiveLog();
    private final CpuMeter cpu = CpuMeter.process();
    /** The warm-up's log of the last few milliseconds, and the run's. */
    private final ReceiveLog[] logs = {new ReceiveLog(WARMUP_COLUMNS), log};
    /** Sequence numbers received of the whole warm-up, and of the run (the run's log has its own). */
    private final BitSet[] seen = {new BitSet(), new BitSet()};
    private int warmupCount;
    private final CpuMeter[] cpus = {CpuMeter.process(), cpu};
    private final long[] lastNanos = new long[2];
    /** Data messages that arrived, duplicates included, of the warm-up and of the run. */
    private final long[] arrivals = new long[2];
    private final byte[] hello = TtcpPayload.hello();
    private final long helloNanos;
    private final long idleNanos;
    private final long startTimeoutNanos;
    private volatile long progress;
    private long otherControl;
    private Phase phase = Phase.WAITING;
    private String reason;
    private boolean stopped;
    private boolean finAfterDone;
    /** Whether the collection after the whole warm-up was in has started. */
    private boolean warmupComplete;
    /** Whether WARMED is held back: the whole warm-up is in, but not yet collected after. */
    private boolean holdWarmed;
    private final TtcpWarmup collector = new TtcpWarmup();
    /** The warm-up's last arrival when the receiver last collected garbage. */
    private long collectedAfter;
    private long joinedNanos;
    private long nextAnnounce;
    private long nextHousekeeping;
    private long finishedNanos;
    private long finishedMicros;

    /**
     * @param socket  a socket, not yet joined
     * @param options how to receive
     * @param probe   reads the socket's MessageStore metrics
     * @param out     progress lines
     */
    public TtcpReceiver(OverlaySocket socket, Options options, StoreProbe probe, PrintWriter out) {
        this.socket = Objects.requireNonNull(socket, "socket");
        this.options = Objects.requireNonNull(options, "options");
        this.probe = Objects.requireNonNull(probe, "probe");
        this.out = Objects.requireNonNull(out, "out");
        this.helloNanos = TimeUnit.MILLISECONDS.toNanos(options.helloMs());
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(options.idleMs());
        this.startTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(options.startTimeoutMs());
        preloadControlPayloads();
    }

    /**
     * Decodes a DONE, a FIN and a WARMED once, so their classes are loaded before the JIT compiles the
     * per-message path: compiled without them, the first DONE from a receiver that finished
     * earlier sprang a trap there and sent the path back to be recompiled mid-run.
     */
    private static void preloadControlPayloads() {
        try {
            TtcpPayload.decode(TtcpPayload.done(1, 0, 0, 0));
            TtcpPayload.decode(TtcpPayload.fin(1, 1));
            TtcpPayload.decode(TtcpPayload.warmed(0, 1));
        } catch (TtcpFormatException e) {
            throw new IllegalStateException("ttcp's own DONE or FIN does not decode", e);
        }
    }

    /** Distinct data messages received so far (for progress displays; any thread). */
    public long received() {
        return progress;
    }

    /**
     * Runs until finished and lingered.
     *
     * @throws OverlayJoinException if the socket cannot join
     * @throws InterruptedException if interrupted
     */
    public Result run() throws OverlayJoinException, InterruptedException {
        // Everything that is not the protocol is set up before join(): from join() on, the
        // receiver's own work is on the path to the first message (firstDataAfterJoinMs).
        Map<String, Long> kernelBefore = KernelUdp.read();
        Sampler sampler = new Sampler(socket, probe, clock, () -> progress, options.sampleMs());
        sampler.prepare();
        long startMicros = clock.nowMicros();
        socket.join();
        joinedNanos = System.nanoTime();
        long joinedMicros = clock.toMicros(joinedNanos);
        sampler.start();
        nextAnnounce = joinedNanos;
        nextHousekeeping = joinedNanos;
        boolean joinedReported = false;
        // The loop and onMessage are all the per-message path: every check whose outcome differs
        // between the warm-up and the run (phase, milestones, deadlines) is in housekeeping(),
        // which runs on a clock in both, so the JIT's code for the warm-up is the run's.
        while (!stopped) {
            long now = System.nanoTime();
            if (now - nextHousekeeping >= 0) {
                housekeeping(now);
                continue;
            }
            OverlayMessage m = socket.receive(nextHousekeeping - now, TimeUnit.NANOSECONDS);
            if (!joinedReported) {
                // printed once the first receive() returned, so that formatting and writing the
                // line is not on the path from join() to the first message; still the first line
                joinedReported = true;
                reportJoined();
            }
            if (m != null) {
                onMessage(m, System.nanoTime());
            }
        }
        if (!joinedReported) {
            reportJoined();
        }
        List<Sampler.Sample> samples = sampler.stop();
        ObjectNode report = report(reason, startMicros, joinedMicros, finishedMicros, finAfterDone, samples, sampler,
                kernelBefore);
        int missing = log.missing(options.expectedCount());
        String outcome = !log.started() ? "no-data" : missing > 0 || log.corruptCount() > 0 ? "incomplete" : "complete";
        report.put("outcome", outcome);
        int exit = outcome.equals("complete") ? 0 : 1;
        ObjectNode s = (ObjectNode) report.get("summary");
        out.printf("ttcp recv: %s: received %d, missing %d, duplicates %d, out of order %d, corrupt %d; %s msgs/s, %s Mbit/s, "
                + "delay p50 %s ms, p99 %s ms%n", reason, log.distinct(), missing, log.duplicates(), log.outOfOrder(), log.corruptCount(),
                s.get("messagesPerSecond"), s.get("throughputMbps"), s.get("delayMsP50"), s.get("delayMsP99"));
        return new Result(exit, report);
    }

    /**
     * One message: a data or warm-up message goes to its own log by arithmetic, not by a branch
     * (see {@link TtcpPayload#measured}); FIN ends the run; anything else is counted.
     */
    private void onMessage(OverlayMessage m, long arrivedNanos) {
        TtcpPayload.Message msg;
        try {
            msg = TtcpPayload.decode(m.payload());
        } catch (TtcpFormatException e) {
            log.corrupt();
            return;
        }
        if (msg instanceof TtcpPayload.Data d) {
            int i = TtcpPayload.measured(d.run());
            ReceiveLog l = logs[i];
            l.record(d, clock.toMicros(arrivedNanos));
            seen[i].set(d.seq());
            // counted per stream, not by the log: the warm-up's logs restart every 20 ms and never
            // reach the meter's every-thousandth reading, which then became a trap in the run
            cpus[i].passed(++arrivals[i]);
            lastNanos[i] = arrivedNanos;
            progress = log.distinct();
        } else {
            onControl(msg, arrivedNanos);
        }
    }

    /** HELLO, DONE and FIN, a few a second: off the per-message path, so a kind first met in the run does not deoptimise it. */
    private void onControl(TtcpPayload.Message msg, long arrivedNanos) {
        if (msg instanceof TtcpPayload.Fin f && (!log.started() || f.run() == log.run())) {
            onFin(arrivedNanos);
        } else {
            otherControl++;
        }
    }

    /**
     * What changes the receiver's phase, on a clock ({@value #HOUSEKEEPING_MS} ms, or the next
     * announcement if sooner) rather than per message: the warm-up's end (a collection), the run's
     * first message and its completion, silence, the start timeout, HELLO and DONE announcements,
     * and the end of lingering.
     */
    private void housekeeping(long now) {
        ReceiveLog warmupLog = logs[WARMUP];
        if (!log.started() && warmupLog.started()) {
            // A fresh log for the warm-up's next few milliseconds: its first message and the growth
            // of its columns then recur all through the warm-up, and the JIT keeps the paths the
            // run's first messages take instead of leaving a trap on them.
            warmupCount = warmupLog.count();
            logs[WARMUP] = new ReceiveLog(WARMUP_COLUMNS);
        }
        if (warmupCount > 0 && !log.started()) {
            // Collect in the sender's pause, in the background (see TtcpWarmup): once the whole
            // warm-up is in, saying so only when that collection is over (the sender starts the
            // run when every receiver has), and after half a second of silence that followed new
            // warm-up traffic (messages lost for good, or stragglers). One at a time: a request
            // while one runs is made again on a later round.
            long last = lastNanos[WARMUP];
            boolean allIn = seen[WARMUP].cardinality() == warmupCount;
            boolean due = allIn && !warmupComplete || last != collectedAfter && now - last > WARMUP_SILENCE_NANOS;
            if (due && collector.collectInBackground()) {
                collectedAfter = last;
                warmupComplete |= allIn;
            }
            boolean hold = allIn && (!warmupComplete || collector.collecting());
            if (holdWarmed && !hold) {
                nextAnnounce = now; // collected: tell the sender at once
            }
            holdWarmed = hold;
        }
        if (phase == Phase.WAITING && log.started()) {
            cpu.start(arrivals[MEASURED]);
            phase = Phase.RECEIVING;
            out.printf("ttcp recv: run %016x: first data (%d received so far of %d)%n", log.run(), log.distinct(), log.count());
        }
        if (phase == Phase.RECEIVING && log.complete()) {
            finish("complete", lastNanos[MEASURED]);
        }
        if (phase == Phase.WAITING && now - joinedNanos > startTimeoutNanos) {
            reason = "start-timeout";
            finishedNanos = now;
            finishedMicros = clock.toMicros(now);
            stopped = true;
            return;
        }
        if (phase == Phase.RECEIVING && now - lastNanos[MEASURED] > idleNanos) {
            finish("idle", now);
        }
        if (phase == Phase.FINISHED && now - finishedNanos > TimeUnit.MILLISECONDS.toNanos(options.lingerMs())) {
            stopped = true;
            return;
        }
        long next = now + TimeUnit.MILLISECONDS.toNanos(HOUSEKEEPING_MS);
        if (phase != Phase.RECEIVING) {
            // HELLO until warm-up or data arrives, WARMED until data does, DONE once finished;
            // nothing while receiving
            if (now - nextAnnounce >= 0) {
                if (phase == Phase.FINISHED || !holdWarmed) {
                    send(phase == Phase.FINISHED ? done() : warmupCount > 0 ? warmed() : hello);
                }
                nextAnnounce = now + helloNanos;
            }
            next = Math.min(next, nextAnnounce);
        }
        nextHousekeeping = next;
    }

    private void finish(String why, long atNanos) {
        cpu.last(arrivals[MEASURED]);
        phase = Phase.FINISHED;
        reason = why;
        finishedNanos = atNanos;
        finishedMicros = clock.toMicros(atNanos);
        nextAnnounce = atNanos;
        announceFinish(why);
    }

    /** The sender's FIN: after finishing, it ends lingering; before, it ends the run. */
    private void onFin(long arrivedNanos) {
        if (phase == Phase.FINISHED) {
            finAfterDone = true;
        } else {
            cpu.last(arrivals[MEASURED]);
            reason = "fin";
            finishedNanos = arrivedNanos;
            finishedMicros = clock.toMicros(arrivedNanos);
            announceFinish(reason);
            send(done());
        }
        stopped = true;
    }

    private byte[] warmed() {
        return TtcpPayload.warmed(Math.min(seen[WARMUP].cardinality(), warmupCount), warmupCount);
    }

    private byte[] done() {
        return TtcpPayload.done(log.run(), log.distinct(), log.missing(options.expectedCount()),
                (int) Math.min(Integer.MAX_VALUE, log.duplicates()));
    }

    private void reportJoined() {
        out.printf("ttcp recv: joined as %s at %s; announcing until data arrives%n", socket.localAddress(),
                socket.substrateAddresses());
    }

    private void announceFinish(String reason) {
        out.printf("ttcp recv: finished (%s): %d of %d received%n", reason, log.distinct(),
                log.count() > 0 ? log.count() : options.expectedCount());
    }

    private void send(byte[] payload) {
        try {
            socket.sendToAll(payload);
        } catch (IllegalStateException e) {
            // the socket left or closed; nothing to announce any more
        }
    }

    private ObjectNode report(String reason, long startMicros, long joinedMicros, long finishedMicros, boolean finAfterDone,
            List<Sampler.Sample> samples, Sampler sampler, Map<String, Long> kernelBefore) {
        long[] seq = log.seqs();
        long[] sent = log.sentMicros();
        long[] recv = log.receivedMicros();
        int n = seq.length;
        int count = log.count() > 0 ? log.count() : options.expectedCount();
        double[] delay = new double[n];
        long firstSent = Long.MAX_VALUE;
        long lastRecv = Long.MIN_VALUE;
        long firstRecv = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            delay[i] = (recv[i] - sent[i]) / 1000.0;
            firstSent = Math.min(firstSent, sent[i]);
            firstRecv = Math.min(firstRecv, recv[i]);
            lastRecv = Math.max(lastRecv, recv[i]);
        }
        ObjectNode report = TtcpReport.object();
        report.put("role", "recv");
        ObjectNode o = report.putObject("options");
        o.put("expectedCount", options.expectedCount());
        o.put("idleMs", options.idleMs());
        o.put("startTimeoutMs", options.startTimeoutMs());
        o.put("lingerMs", options.lingerMs());
        report.set("node", TtcpReport.node(socket));
        report.set("machine", TtcpReport.machine());
        report.put("run", log.started() ? Long.toHexString(log.run()) : null);
        report.put("outcome", reason);
        report.put("finAfterDone", finAfterDone);
        report.put("count", count);
        report.put("size", log.size());
        report.put("startMicros", startMicros);
        report.put("joinedMicros", joinedMicros);
        report.put("finishedMicros", finishedMicros);

        ObjectNode s = report.putObject("summary");
        s.put("received", log.distinct());
        s.put("missing", log.missing(options.expectedCount()));
        s.put("duplicates", log.duplicates());
        s.put("outOfOrder", log.outOfOrder());
        s.put("corrupt", log.corruptCount());
        s.put("foreign", log.foreign());
        double seconds = n > 0 ? (lastRecv - firstSent) / 1e6 : Double.NaN;
        TtcpReport.putNumber(s, "messagesPerSecond", n > 0 ? n / Math.max(seconds, 1e-6) : Double.NaN);
        TtcpReport.putNumber(s, "throughputMbps", n > 0 ? 8.0 * n * log.size() / Math.max(lastRecv - firstSent, 1) : Double.NaN);
        if (n > 0) {
            double[] sorted = TtcpStats.sorted(delay);
            TtcpReport.putNumber(s, "delayMsMin", sorted[0]);
            TtcpReport.putNumber(s, "delayMsMean", mean(delay));
            TtcpReport.putNumber(s, "delayMsP50", TtcpStats.percentile(sorted, 50));
            TtcpReport.putNumber(s, "delayMsP90", TtcpStats.percentile(sorted, 90));
            TtcpReport.putNumber(s, "delayMsP99", TtcpStats.percentile(sorted, 99));
            TtcpReport.putNumber(s, "delayMsMax", sorted[n - 1]);
        } else {
            for (String k : List.of("delayMsMin", "delayMsMean", "delayMsP50", "delayMsP90", "delayMsP99", "delayMsMax")) {
                s.putNull(k);
            }
        }
        secondHalf(s, seq, sent, delay, count);
        TtcpReport.putNumber(s, "elapsedSeconds", seconds);
        if (n > 0) {
            s.put("firstSentMicros", firstSent);
            s.put("firstReceivedMicros", firstRecv);
            s.put("lastReceivedMicros", lastRecv);
            TtcpReport.putNumber(s, "firstDataAfterJoinMs", (firstRecv - joinedMicros) / 1000.0);
        }
        s.put("otherControlMessages", otherControl);
        s.put("warmupMessages", seen[WARMUP].cardinality());
        TtcpReport.putNumber(s, "cpuMicrosPerMessage", cpu.microsPerMessage());
        TtcpReport.putCanary(s, samples);

        List<int[]> ranges = log.missingRanges(options.expectedCount(), MAX_MISSING_RANGES);
        ArrayNode mr = report.putArray("missingRanges");
        for (int[] r : ranges) {
            mr.addArray().add(r[0]).add(r[1]);
        }
        report.put("missingRangesTruncated", ranges.size() == MAX_MISSING_RANGES);

        ObjectNode messages = report.putObject("messages");
        messages.put("order", "arrival");
        messages.set("seq", TtcpReport.longs(seq));
        messages.set("sentMicros", TtcpReport.longs(sent));
        messages.set("receivedMicros", TtcpReport.longs(recv));
        messages.set("delayMs", TtcpReport.doubles(delay));

        ObjectNode tp = report.putObject("throughput");
        tp.put("windowMessages", TtcpStats.THROUGHPUT_WINDOW);
        tp.put("unit", "kbit/s");
        double[] kbps = TtcpStats.movingThroughputKbps(sent, recv, log.size(), TtcpStats.THROUGHPUT_WINDOW);
        long[] at = new long[kbps.length];
        for (int i = 0; i < kbps.length; i++) {
            at[i] = recv[i + TtcpStats.THROUGHPUT_WINDOW - 1];
        }
        tp.set("receivedMicros", TtcpReport.longs(at));
        tp.set("kbps", TtcpReport.doubles(kbps));
        if (kbps.length > 0) {
            double[] sortedK = TtcpStats.sorted(kbps);
            TtcpReport.putNumber(tp, "minKbps", sortedK[0]);
            TtcpReport.putNumber(tp, "medianKbps", TtcpStats.percentile(sortedK, 50));
            TtcpReport.putNumber(tp, "maxKbps", sortedK[sortedK.length - 1]);
        }

        report.set("samples", TtcpReport.samples(samples, sampler.periodMs(), sampler.dropped(), probe));
        report.set("tMsg", TtcpReport.tMsg(samples, probe));
        report.set("drops", TtcpReport.drops(socket, kernelBefore, probe));
        report.set("storeActivity", TtcpReport.activity(probe));
        report.set("statistics", TtcpReport.statistics(socket));
        return report;
    }

    /**
     * Whether delay grows: the least-squares slope of delay (ms) over send time (s) for the
     * second half of the run's sequence numbers, and the mean delay of each half.
     */
    private static void secondHalf(ObjectNode s, long[] seq, long[] sent, double[] delay, int count) {
        int half = count / 2;
        int n2 = 0;
        double first = 0;
        int n1 = 0;
        double second = 0;
        for (int i = 0; i < seq.length; i++) {
            if (seq[i] >= half) {
                n2++;
                second += delay[i];
            } else {
                n1++;
                first += delay[i];
            }
        }
        double[] x = new double[n2];
        double[] y = new double[n2];
        long base = sent.length > 0 ? sent[0] : 0; // seconds since then keep full precision in a double
        int j = 0;
        for (int i = 0; i < seq.length; i++) {
            if (seq[i] >= half) {
                x[j] = (sent[i] - base) / 1e6;
                y[j] = delay[i];
                j++;
            }
        }
        TtcpReport.putNumber(s, "delaySlopeMsPerS", TtcpStats.slope(x, y));
        TtcpReport.putNumber(s, "delayMsMeanFirstHalf", n1 > 0 ? first / n1 : Double.NaN);
        TtcpReport.putNumber(s, "delayMsMeanSecondHalf", n2 > 0 ? second / n2 : Double.NaN);
    }

    private static double mean(double[] v) {
        double sum = 0;
        for (double d : v) {
            sum += d;
        }
        return v.length == 0 ? Double.NaN : sum / v.length;
    }
}
