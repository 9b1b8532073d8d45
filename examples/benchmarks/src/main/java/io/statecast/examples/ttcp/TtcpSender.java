package io.statecast.examples.ttcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.socket.OverlayJoinException;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.socket.SendWindowException;
import io.statecast.overlay.socket.SendWindowStatistics;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The sending side of ttcp: joins, waits until {@code waitFor} receivers have said HELLO, warms
 * up, multicasts {@code count} DATA messages of {@code size} bytes paced by a {@link Pacer}, then
 * waits (at most {@code lingerMs}) for every ready receiver's DONE — keeping the node up so a
 * reliable service can still repair losses — and finally sends FIN.
 *
 * <p>Backpressure ({@link BackpressureGate}): before each send the sender waits (up to a second)
 * while the substrate toward any of its children in its own multicast tree is not writable, or
 * (for a service the socket's send window does not cover) while its own MessageStore has half a
 * data queue waiting, as TTCP's blocking write does on TCP; the report shows how long it waited.
 * A service whose spec declares in-flight states (h2h-ack, e2e-ack) is clocked by the socket's
 * send window ({@code overlay.sendWindow}): a send waits until acknowledgements make room, and a
 * send that found no room within {@code maxWaitMs} is reported as a send failure
 * ({@code sendFailures}, {@code sendWindowTimeouts}), not a crash. Intermediate nodes do
 * not push back: what they cannot forward they drop, and count.
 */
public final class TtcpSender {

    /**
     * What to send.
     *
     * @param count         data messages, 1..{@link ReceiveLog#MAX_COUNT}
     * @param size          payload bytes, {@link TtcpPayload#MIN_DATA_SIZE}..{@link TtcpPayload#MAX_DATA_SIZE}
     * @param rate          messages per second; {@link Double#POSITIVE_INFINITY} for as fast as possible
     * @param burst         most messages sent back to back to catch up with the schedule
     * @param tickMicros    the pacer wakes at most once per this many microseconds, sending what fell due
     *                      meanwhile back to back (0: once per message); see {@link Pacer}
     * @param serviceId     the MessageStore service, or {@code null} for best-effort
     * @param waitFor       receivers whose HELLO to await before sending
     * @param waitTimeoutMs how long to wait for them
     * @param warmupMessages WARMUP messages sent at the set rate before the measured run
     * @param warmupRamp    fraction of the warm-up messages, 0..1, sent while the rate climbs in
     *                      {@link #RAMP_STEPS} steps from a quarter of the set rate toward it
     *                      (0: the whole warm-up at the set rate)
     * @param warmupWaitMs  after the warm-up messages, wait at most this long until every ready
     *                      receiver reported (WARMED) that it has every warm-up message that was
     *                      sent, or until no receiver gained one for {@code warmupQuietMs}
     * @param warmupQuietMs end that wait once no receiver gained a warm-up message for this long
     * @param warmupMs      pause before the first DATA, after that wait
     * @param lingerMs      how long to wait for DONE from every ready receiver after the last DATA
     * @param sampleMs      sampling period of heap, queues and store metrics
     * @param backpressure  wait while the substrate toward a child is not writable
     */
    public record Options(int count, int size, double rate, int burst, long tickMicros, Integer serviceId, int waitFor, long waitTimeoutMs,
            int warmupMessages, double warmupRamp, long warmupWaitMs, long warmupQuietMs, long warmupMs, long lingerMs,
            long sampleMs, boolean backpressure) {

        /** Rate steps of a ramped warm-up. */
        public static final int RAMP_STEPS = 8;

        /** Default of {@code warmupWaitMs}. */
        public static final long DEFAULT_WARMUP_WAIT_MS = 30_000;
        /**
         * Default of {@code warmupQuietMs}. A service may give up on messages (h2h-ack resets an
         * instance 5 s after its acknowledgements stopped), and a wait for them would last to its
         * deadline; but e2e-ack repairs in rounds of its 2 s ACK Request, and a 2 s quiet period
         * ended the wait in the middle of a repair that completed soon after.
         */
        public static final long DEFAULT_WARMUP_QUIET_MS = 5_000;

        /** Options whose warm-up, if any, runs at the set rate throughout, waiting for the receivers' as by default. */
        public Options(int count, int size, double rate, int burst, long tickMicros, Integer serviceId, int waitFor,
                       long waitTimeoutMs, int warmupMessages, long warmupMs, long lingerMs, long sampleMs, boolean backpressure) {
            this(count, size, rate, burst, tickMicros, serviceId, waitFor, waitTimeoutMs, warmupMessages, 0, DEFAULT_WARMUP_WAIT_MS,
                    DEFAULT_WARMUP_QUIET_MS, warmupMs, lingerMs, sampleMs, backpressure);
        }

        /** Checks ranges. */
        public Options {
            if (count < 1 || count > ReceiveLog.MAX_COUNT) {
                throw new IllegalArgumentException("--count=" + count + " must be within 1.." + ReceiveLog.MAX_COUNT);
            }
            if (size < TtcpPayload.MIN_DATA_SIZE || size > TtcpPayload.MAX_DATA_SIZE) {
                throw new IllegalArgumentException("--size=" + size + " must be within " + TtcpPayload.MIN_DATA_SIZE + ".."
                        + TtcpPayload.MAX_DATA_SIZE);
            }
            if (!(rate > 0)) {
                throw new IllegalArgumentException("--rate=" + rate + " must be > 0");
            }
            if (burst < 1) {
                throw new IllegalArgumentException("--burst=" + burst + " must be >= 1");
            }
            if (tickMicros < 0 || tickMicros > 1_000_000) {
                throw new IllegalArgumentException("--tick-us=" + tickMicros + " must be within 0..1000000");
            }
            if (serviceId != null && serviceId < 0) {
                throw new IllegalArgumentException("--service=" + serviceId + " must be >= 0 (ServiceIDs are non-negative)");
            }
            if (waitFor < 0 || waitFor > 10_000) {
                throw new IllegalArgumentException("--wait-for=" + waitFor + " must be within 0..10000");
            }
            if (warmupMessages < 0 || warmupMessages > ReceiveLog.MAX_COUNT) {
                throw new IllegalArgumentException("--warmup-messages=" + warmupMessages + " must be within 0.." + ReceiveLog.MAX_COUNT);
            }
            if (!(warmupRamp >= 0 && warmupRamp <= 1)) {
                throw new IllegalArgumentException("--warmup-ramp=" + warmupRamp + " must be within 0..1");
            }
            nonNegative("--wait-timeout", waitTimeoutMs);
            nonNegative("--warmup-wait", warmupWaitMs);
            nonNegative("--warmup-quiet", warmupQuietMs);
            nonNegative("--warmup-ms", warmupMs);
            nonNegative("--linger", lingerMs);
            if (sampleMs < 10 || sampleMs > 60_000) {
                throw new IllegalArgumentException("--sample-ms=" + sampleMs + " must be within 10..60000");
            }
        }

        private static void nonNegative(String name, long v) {
            if (v < 0 || v > TimeUnit.DAYS.toMillis(1)) {
                throw new IllegalArgumentException(name + "=" + v + " must be within 0..86400000 ms");
            }
        }
    }

    /**
     * The outcome.
     *
     * @param exitCode 0 if every message was sent and every ready receiver reported DONE with
     *                 nothing missing; else 1: the receivers did not all show up in time, a receiver
     *                 reported missing messages or never reported, or sends failed (the report's
     *                 {@code outcome} says which)
     * @param report   the JSON report
     */
    public record Result(int exitCode, ObjectNode report) {
    }

    private static final int FIN_REPEATS = 5;

    /**
     * Closes the loop from in-process receivers to the sender: before each data message of the
     * measured run the sender waits while it is ahead of the slowest receiver's count of distinct
     * messages received by as many messages as that receiver gets in {@code leadMs} (at its rate
     * measured over the last second, at least {@link #MIN_LEAD} and at most {@code limit}
     * messages). So a machine too busy for the set rate slows the run down instead of queueing
     * messages past a service's give-up timers. A lost message does not hold the sender (later
     * ones still count); a receiver that gains nothing for {@code stallMs} releases it.
     *
     * @param slowestReceived the smallest {@link TtcpReceiver#received()} of the receivers
     * @param limit           most messages the sender may be ahead, at least {@link #MIN_LEAD}
     * @param leadMs          how far ahead, in the slowest receiver's time
     * @param stallMs         stop waiting once the slowest count has not grown for this long
     */
    public record Lead(LongSupplier slowestReceived, int limit, long leadMs, long stallMs) {
        /** The fewest messages the sender may be ahead, whatever the receivers' rate. */
        public static final int MIN_LEAD = 8;

        /** Checks ranges. */
        public Lead {
            Objects.requireNonNull(slowestReceived, "slowestReceived");
            if (limit < MIN_LEAD || leadMs < 1 || stallMs < 1) {
                throw new IllegalArgumentException("lead limit=" + limit + " (>= " + MIN_LEAD + "), leadMs=" + leadMs
                        + " and stallMs=" + stallMs + " (>= 1)");
            }
        }
    }

    /** How often the slowest receiver's rate is sampled for {@link Lead}. */
    private static final long LEAD_SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final OverlaySocket socket;
    private final Options options;
    private final StoreProbe probe;
    private final PrintWriter out;
    /** The one receiver the data messages are unicast to, or {@code null} to multicast them. */
    private final LogicalAddress destination;
    /** Paces the run by the receivers' progress, or null. */
    private volatile Lead lead;
    /** The slowest receiver's count when it last grew, and when (sending thread only). */
    private long leadSeen;
    private long leadGainNanos;
    /** The slowest receiver's count and time at the last rate sample, and its rate (messages/s, smoothed; < 0 unknown). */
    private long leadSampleCount;
    private long leadSampleNanos;
    private double leadRate = -1;
    private final EpochClock clock = EpochClock.system();
    private final ReceiverRoster roster = new ReceiverRoster();
    private volatile long run;
    private volatile long corruptControl;
    /** Non-payload messages the service handed the source's application (e2e-ack's Full ACKs): not ttcp control. */
    private volatile long serviceNotifications;

    /**
     * @param socket  a socket, not yet joined
     * @param options what to send
     * @param probe   reads the socket's MessageStore metrics
     * @param out     progress lines
     */
    public TtcpSender(OverlaySocket socket, Options options, StoreProbe probe, PrintWriter out) {
        this(socket, options, probe, out, null);
    }

    /**
     * A sender whose data messages (warm-up and run) go to {@code destination} alone, as unicasts:
     * a unicast service such as reliable-unicast sees them. The rendezvous stays multicast.
     *
     * @param socket      a socket, not yet joined
     * @param options     what to send
     * @param probe       reads the socket's MessageStore metrics
     * @param out         progress lines
     * @param destination the receiver's logical address, or {@code null} to multicast
     */
    public TtcpSender(OverlaySocket socket, Options options, StoreProbe probe, PrintWriter out, LogicalAddress destination) {
        this.socket = Objects.requireNonNull(socket, "socket");
        this.options = Objects.requireNonNull(options, "options");
        this.probe = Objects.requireNonNull(probe, "probe");
        this.out = Objects.requireNonNull(out, "out");
        this.destination = destination;
    }

    /** Paces the measured run by in-process receivers' progress (see {@link Lead}); call before {@link #run()}. */
    public TtcpSender lead(Lead lead) {
        this.lead = Objects.requireNonNull(lead, "lead");
        return this;
    }

    /**
     * Runs the whole exchange.
     *
     * @throws OverlayJoinException if the socket cannot join
     * @throws InterruptedException if interrupted
     */
    public Result run() throws OverlayJoinException, InterruptedException {
        Map<String, Long> kernelBefore = KernelUdp.read();
        long startMicros = clock.nowMicros();
        socket.onMessage(this::onControl);
        socket.join();
        out.printf("ttcp send: joined as %s at %s; waiting for %d receiver(s)%n", socket.localAddress(),
                socket.substrateAddresses(), options.waitFor());
        boolean ready = roster.awaitReady(options.waitFor(), options.waitTimeoutMs());
        long readyMicros = clock.nowMicros();
        ObjectNode report = TtcpReport.object();
        report.put("role", "send");
        report.set("options", options());
        report.set("node", TtcpReport.node(socket));
        report.set("machine", TtcpReport.machine());
        if (!ready) {
            out.printf("ttcp send: only %d of %d receiver(s) ready after %d ms; not sending%n", roster.ready(),
                    options.waitFor(), options.waitTimeoutMs());
            report.put("outcome", "receivers-not-ready");
            report.set("summary", summary(0, 0, 0, 0, 0, 0, null));
            report.set("receivers", roster.toJson());
            report.set("drops", TtcpReport.drops(socket, kernelBefore, probe));
            report.set("storeActivity", TtcpReport.activity(probe));
            report.set("statistics", TtcpReport.statistics(socket));
            return new Result(1, report);
        }
        gate = new BackpressureGate(socket, options.serviceId());
        // sampling starts with the run; the thread, and the canary's compilation, before the warm-up
        Sampler sampler = new Sampler(socket, probe, clock, () -> measured == null ? 0 : measured.sent(), options.sampleMs());
        sampler.prepare();
        int warmupSent = warmUp();
        long warmupWaitNanos = 0;
        ReceiverRoster.WarmUp warmedUp = null;
        int receiversWarmedUp = roster.ready();
        if (warmupSent >= 0) {
            TtcpWarmup.collectGarbage();
            long t0 = System.nanoTime();
            warmedUp = awaitWarmedUp(warmupSent);
            warmupWaitNanos = System.nanoTime() - t0;
            // counted when the wait ended: a repair that completed afterwards was not waited for
            receiversWarmedUp = roster.warmedUp(warmupSent);
        }
        pause(options.warmupMs());
        run = new SecureRandom().nextLong() | 1L; // never 0: the warm-up's run and HELLO's
        SendStream stream = new SendStream(run, options.count(), true, CpuMeter.process(), "message");
        sampler.start();
        Pacer pacer = Pacer.system(options.rate(), options.burst(), options.tickMicros() * 1_000L);
        SendWindowStatistics windowBefore = socket.sendWindowStatistics();
        out.printf("ttcp send: run %016x: %d messages of %d bytes at %s, service %s%n", run, options.count(), options.size(),
                Double.isInfinite(options.rate()) ? "full speed" : String.format("%.1f msgs/s (%.3f Mbit/s)", options.rate(),
                        options.rate() * options.size() * 8 / 1e6), options.serviceId() == null ? "none (best-effort)"
                        : options.serviceId());
        measured = stream;
        stream.cpu.start(0);
        send(stream, 0, options.count(), pacer);
        stream.cpu.last(stream.sent());
        int failed = stream.failed;
        Map<String, Integer> failures = stream.failures;
        long[] sentMicros = stream.sentMicros;
        long lastNanos = stream.lastNanos;
        // the first send's time from its stamp: the warm-up passes seq 0 before the JIT compiles the
        // send path, so a branch on it there would be a trap in the run's first send
        long firstNanos = lastNanos - (sentMicros[options.count() - 1] - sentMicros[0]) * 1_000;
        long endMicros = clock.nowMicros();
        int sent = options.count() - failed;
        out.printf("ttcp send: sent %d of %d in %.3f s; waiting up to %d ms for %d receiver(s) to finish%n", sent,
                options.count(), (lastNanos - firstNanos) / 1e9, options.lingerMs(), roster.ready());
        boolean allDone = roster.awaitAllDone(options.lingerMs());
        for (int i = 0; i < FIN_REPEATS; i++) {
            sendControl(TtcpPayload.fin(run, options.count()));
            pause(100);
        }
        List<Sampler.Sample> samples = sampler.stop();

        double seconds = (lastNanos - firstNanos) / 1e9;
        double achieved = options.count() > 1 && seconds > 0 ? (options.count() - 1) / seconds : Double.NaN;
        report.put("run", Long.toHexString(run));
        report.put("startMicros", startMicros);
        report.put("readyMicros", readyMicros);
        report.put("firstSentMicros", sentMicros[0]);
        report.put("lastSentMicros", sentMicros[options.count() - 1]);
        report.put("endMicros", endMicros);
        ObjectNode summary = summary(sent, options.count() - sent, achieved, seconds, pacer.maxBehindNanos() / 1e6,
                stream.backpressureNanos / 1e6, failures);
        summary.put("backpressureTimeouts", stream.backpressureTimeouts);
        SendWindowStatistics window = socket.sendWindowStatistics();
        summary.put("sendWindow", socket.config().sendWindow().window());
        summary.put("sendWindowWaits", window.waits() - windowBefore.waits());
        TtcpReport.putNumber(summary, "sendWindowWaitMs", (window.waitedNanos() - windowBefore.waitedNanos()) / 1e6);
        summary.put("sendWindowTimeouts", window.failures() - windowBefore.failures());
        summary.put("sendWindowHalvings", window.halvings() - windowBefore.halvings());
        summary.put("sendWindowEffective", window.window());
        summary.put("creditLost", pacer.creditLost());
        TtcpReport.putNumber(summary, "cpuMicrosPerMessage", stream.cpu.microsPerMessage());
        TtcpReport.putCanary(summary, samples);
        summary.put("warmupSent", Math.max(warmupSent, 0));
        TtcpReport.putNumber(summary, "warmupWaitMs", warmupWaitNanos / 1e6);
        summary.put("receiversWarmedUp", receiversWarmedUp);
        summary.put("warmupOutcome", warmedUp == null ? null : warmedUp.label());
        summary.put("receiversReady", roster.ready());
        summary.put("receiversDone", roster.done());
        summary.put("receiversComplete", roster.complete());
        report.set("summary", summary);
        report.set("receivers", roster.toJson());
        ObjectNode messages = report.putObject("messages");
        messages.put("firstSeq", 0);
        messages.set("sentMicros", TtcpReport.longs(sentMicros));
        report.set("samples", TtcpReport.samples(samples, sampler.periodMs(), sampler.dropped(), probe));
        report.set("tMsg", TtcpReport.tMsg(samples, probe));
        report.set("drops", TtcpReport.drops(socket, kernelBefore, probe));
        report.set("storeActivity", TtcpReport.activity(probe));
        report.set("statistics", TtcpReport.statistics(socket));
        report.put("foreignControlMessages", roster.foreignCount());
        report.put("corruptControlMessages", corruptControl);
        report.put("serviceNotifications", serviceNotifications);
        int exit;
        if (failed > 0) {
            exit = 1;
            report.put("outcome", "send-failures");
        } else if (!allDone || roster.complete() < roster.ready()) {
            exit = options.waitFor() == 0 && roster.ready() == 0 ? 0 : 1;
            report.put("outcome", exit == 0 ? "sent" : "receivers-incomplete");
        } else {
            exit = 0;
            report.put("outcome", "complete");
        }
        out.printf("ttcp send: %s; %d receiver(s) ready, %d done, %d complete; achieved %.1f msgs/s%n",
                report.get("outcome").asText(), roster.ready(), roster.done(), roster.complete(), achieved);
        return new Result(exit, report);
    }

    /** Waits out backpressure before each send (set once joined). */
    private BackpressureGate gate;

    /** The measured run's stream once it started (the warm-up does not count as sent). */
    private volatile SendStream measured;

    /** Data messages sent so far (for progress displays; any thread). */
    public int sent() {
        SendStream s = measured;
        return s == null ? 0 : s.sent();
    }

    /** Sends messages {@code from} (inclusive) to {@code to} of {@code s}, each when {@code pacer} allows. */
    private void send(SendStream s, int from, int to, Pacer pacer) throws InterruptedException {
        for (int seq = from; seq < to; seq++) {
            pacer.acquire();
            sendOne(s, seq);
        }
    }

    /**
     * Sends message {@code seq} of {@code s}: waits out backpressure, stamps and encodes it, and
     * hands it to the socket, counting a failure instead of stopping. The warm-up and the run
     * share this path and every branch on it.
     */
    private void sendOne(SendStream s, int seq) throws InterruptedException {
        if (options.backpressure()) {
            long waited = gate.await();
            s.backpressureNanos += Math.abs(waited);
            if (waited < 0) {
                s.backpressureTimeouts++;
            }
        }
        Lead l = lead;
        if (l != null && s == measured) {
            s.backpressureNanos += awaitReceivers(l, seq);
        }
        long now = System.nanoTime();
        s.lastNanos = now;
        long t = clock.toMicros(now);
        s.sentMicros[s.slot(seq)] = t;
        byte[] payload = TtcpPayload.dataOrWarmup(s.run, seq, s.count, t, options.size());
        try {
            if (destination != null) {
                if (options.serviceId() == null) {
                    socket.sendTo(destination, payload);
                } else {
                    socket.sendTo(destination, payload, options.serviceId());
                }
            } else if (options.serviceId() == null) {
                socket.sendToAll(payload);
            } else {
                socket.sendToAll(payload, options.serviceId());
            }
        } catch (SendWindowException e) {
            s.failed++;
            if (s.failures.merge("SendWindowException: no room in the send window of ServiceID " + e.serviceId()
                    + " (window " + e.window() + ") within overlay.sendWindow.maxWaitMs", 1, Integer::sum) == 1) {
                out.printf("ttcp send: %s %d not sent: %s%n", s.noun, seq, e.getMessage());
            }
            if (e.interrupted()) {
                throw new InterruptedException("interrupted while waiting for the send window");
            }
        } catch (IllegalStateException | IllegalArgumentException e) {
            s.failed++;
            s.failures.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1, Integer::sum);
        }
        s.sent(seq + 1);
        s.cpu.passed(seq + 1);
    }

    /**
     * Waits while message {@code seq} would put the sender further ahead of the slowest receiver
     * than {@link #leadLimit} allows, unless that receiver has gained nothing for
     * {@code l.stallMs()}; returns the nanoseconds waited. The last gain is remembered across
     * messages, so a stalled receiver delays one message by the stall time, not every message.
     * Sending thread only.
     */
    private long awaitReceivers(Lead l, int seq) throws InterruptedException {
        long start = System.nanoTime();
        long stallNanos = TimeUnit.MILLISECONDS.toNanos(l.stallMs());
        if (leadGainNanos == 0) {
            leadGainNanos = start;
            leadSampleNanos = start;
        }
        for (long now = start; ; now = System.nanoTime()) {
            long c = l.slowestReceived().getAsLong();
            if (c > leadSeen) {
                leadSeen = c;
                leadGainNanos = now;
            }
            sampleLeadRate(c, now);
            if (seq - leadSeen < leadLimit(l) || now - leadGainNanos > stallNanos) {
                return now - start;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for the receivers");
            }
            LockSupport.parkNanos(200_000);
        }
    }

    /** Updates the slowest receiver's smoothed rate once per {@link #LEAD_SAMPLE_NANOS}. */
    private void sampleLeadRate(long count, long now) {
        long dt = now - leadSampleNanos;
        if (dt < LEAD_SAMPLE_NANOS) {
            return;
        }
        double rate = (count - leadSampleCount) * 1e9 / dt;
        leadRate = leadRate < 0 ? rate : leadRate + (rate - leadRate) / 4; // about a second's memory
        leadSampleCount = count;
        leadSampleNanos = now;
    }

    /** How many messages the sender may be ahead now: {@code leadMs} of the slowest receiver's rate, within bounds. */
    private int leadLimit(Lead l) {
        if (leadRate < 0) {
            return l.limit();
        }
        long n = (long) (leadRate * l.leadMs() / 1000);
        return (int) Math.max(Lead.MIN_LEAD, Math.min(l.limit(), n));
    }

    /**
     * Sends the warm-up messages, paced like the run and with the run's service, so that every
     * node's store, FSMs and acknowledgements run the code the measured messages will: warmed up
     * best-effort, a service's path was still interpreted (C1) or compiled afresh and deoptimised
     * (C2) while the run was measured. They take the run's own send path ({@link #sendOne}); a
     * warm-up message that could not be sent is counted apart, reported in one line, and skipped.
     *
     * <p>The first {@code warmupRamp} of the messages climb toward the set rate in steps: at the
     * full rate from the first message, six nodes compiling on two cores fell behind, lost up to a
     * quarter of the warm-up in h2h-ack's recovery storms at 5 hops, and the recovery traffic still
     * ran when the measured run began.
     *
     * @return warm-up messages handed to the socket without failure; -1 if there was no warm-up
     */
    private int warmUp() throws InterruptedException {
        int n = options.warmupMessages();
        if (n == 0) {
            return -1;
        }
        // as fast as possible has no rate to climb to
        int ramp = Double.isInfinite(options.rate()) ? 0 : (int) Math.round(n * options.warmupRamp());
        out.printf("ttcp send: warming up with %d messages%s%n", n,
                ramp == 0 ? "" : String.format(" (the first %d at a rate climbing from a quarter of the set rate)", ramp));
        SendStream warmup = new SendStream(TtcpPayload.WARMUP_RUN, n, false, CpuMeter.process(), "warm-up message");
        for (int step = 0, from = 0; from < n; step++) {
            // ramp steps of ramp / RAMP_STEPS messages each, then the rest at the set rate
            int s = ramp == 0 ? Options.RAMP_STEPS : Math.min(step, Options.RAMP_STEPS);
            int to = s == Options.RAMP_STEPS ? n : (int) Math.min(n, ((long) s + 1) * ramp / Options.RAMP_STEPS);
            double rate = options.rate() * rampFactor(s);
            int burst = s == Options.RAMP_STEPS ? options.burst() : Math.min(options.burst(), Pacer.defaultBurst(rate));
            send(warmup, from, to, Pacer.system(rate, burst, options.tickMicros() * 1_000L));
            from = to;
        }
        if (warmup.failed > 0) {
            out.printf("ttcp send: %d of %d warm-up messages not sent: %s%n", warmup.failed, n, warmup.failures.keySet());
        }
        return n - warmup.failed;
    }

    /**
     * Waits until every ready receiver has all {@code sent} warm-up messages, so that a reliable
     * service's recovery of the warm-up is over before the run starts: at 5 hops a fixed pause
     * ended while h2h-ack still repaired the warm-up's losses at the far nodes, and the run began
     * behind. Messages that a best-effort service lost, or a reliable one gave up on, never come:
     * the wait also ends once no receiver gained one for {@code warmupQuietMs}.
     */
    private ReceiverRoster.WarmUp awaitWarmedUp(int sent) throws InterruptedException {
        long t0 = System.nanoTime();
        ReceiverRoster.WarmUp w = roster.awaitWarmedUp(sent, options.warmupQuietMs(), options.warmupWaitMs());
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        if (w == ReceiverRoster.WarmUp.COMPLETE) {
            out.printf("ttcp send: every receiver has the warm-up's %d messages (waited %d ms)%n", sent, ms);
        } else {
            out.printf("ttcp send: after %d ms only %d of %d receiver(s) have the warm-up's %d messages (%s); starting anyway%n",
                    ms, roster.warmedUp(sent), roster.ready(), sent, w == ReceiverRoster.WarmUp.STALLED
                            ? "no receiver gained one for " + options.warmupQuietMs() + " ms" : "the wait's deadline passed");
        }
        return w;
    }

    /** The share of the set rate at ramp step {@code step} ({@link Options#RAMP_STEPS}: all of it). */
    static double rampFactor(int step) {
        return 0.25 + 0.75 * step / Options.RAMP_STEPS;
    }

    private ObjectNode options() {
        ObjectNode o = TtcpReport.object();
        o.put("count", options.count());
        o.put("size", options.size());
        o.put("to", destination == null ? "all" : destination.toString());
        if (Double.isInfinite(options.rate())) {
            o.putNull("rate");
        } else {
            o.put("rate", options.rate());
        }
        o.put("rateMbps", Double.isInfinite(options.rate()) ? null : options.rate() * options.size() * 8 / 1e6);
        o.put("burst", options.burst());
        o.put("tickMicros", options.tickMicros());
        if (options.serviceId() == null) {
            o.putNull("service");
        } else {
            o.put("service", options.serviceId());
        }
        o.put("waitFor", options.waitFor());
        o.put("warmupMessages", options.warmupMessages());
        o.put("warmupRamp", options.warmupRamp());
        o.put("warmupWaitMs", options.warmupWaitMs());
        o.put("warmupQuietMs", options.warmupQuietMs());
        o.put("warmupMs", options.warmupMs());
        o.put("lingerMs", options.lingerMs());
        o.put("backpressure", options.backpressure());
        return o;
    }

    private ObjectNode summary(int sent, int missing, double achieved, double seconds, double maxBehindMs,
            double backpressureMs, Map<String, Integer> failures) {
        ObjectNode s = TtcpReport.object();
        s.put("sent", sent);
        s.put("missing", missing);
        s.put("duplicates", 0);
        TtcpReport.putNumber(s, "messagesPerSecond", achieved);
        TtcpReport.putNumber(s, "throughputMbps", achieved * options.size() * 8 / 1e6);
        s.putNull("delayMsP50");
        s.putNull("delayMsP99");
        TtcpReport.putNumber(s, "targetRate", Double.isInfinite(options.rate()) ? Double.NaN : options.rate());
        TtcpReport.putNumber(s, "sendSeconds", seconds);
        TtcpReport.putNumber(s, "maxBehindScheduleMs", maxBehindMs);
        TtcpReport.putNumber(s, "backpressureWaitMs", backpressureMs);
        ObjectNode f = s.putObject("sendFailures");
        if (failures != null) {
            failures.forEach(f::put);
        }
        return s;
    }

    // ------------------------------------------------------------------------------ control

    /** HELLO and DONE from receivers, on the socket's delivery thread. */
    private void onControl(OverlayMessage m) {
        if (m.fsm() != null && m.fsm().messageType() != FsmExtension.PAYLOAD_TYPE) {
            serviceNotifications++; // only the delivery thread writes it
            return;
        }
        onControlPayload(m);
    }

    /**
     * A ttcp payload from a receiver, a few per run: a method of its own because the delivery
     * thread's path above runs once per acknowledged message with e2e-ack, and the first DONE,
     * inlined there, was a type the JIT had not seen and sent that path back to the interpreter.
     */
    private void onControlPayload(OverlayMessage m) {
        TtcpPayload.Message msg;
        try {
            msg = TtcpPayload.decode(m.payload());
        } catch (TtcpFormatException e) {
            corruptControl++; // only the delivery thread writes it
            return;
        }
        if (msg instanceof TtcpPayload.Hello) {
            int n = roster.hello(m.source(), clock.nowMicros());
            if (n > 0) {
                out.printf("ttcp send: receiver %s ready (%d/%d)%n", m.source(), n, options.waitFor());
            }
        } else if (msg instanceof TtcpPayload.Warmed w) {
            roster.warmed(m.source(), w);
        } else if (msg instanceof TtcpPayload.Done d) {
            if (roster.done(m.source(), d, run)) {
                out.printf("ttcp send: receiver %s done: %d received, %d missing, %d duplicates%n", m.source(),
                        d.received(), d.missing(), d.duplicates());
            }
        } else if (!(msg instanceof TtcpPayload.Data d && d.warmup())) {
            roster.foreign();
        }
    }

    private void sendControl(byte[] payload) {
        try {
            socket.sendToAll(payload);
        } catch (IllegalStateException e) {
            // left or closed meanwhile: nothing more to tell anyone
        }
    }

    private static void pause(long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
