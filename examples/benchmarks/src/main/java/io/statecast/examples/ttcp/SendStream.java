package io.statecast.examples.ttcp;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One stream of data messages a sender sends: the warm-up or the measured run. Both go through
 * the sender's one send path with their own counters, so that the run executes exactly the code
 * the warm-up had the JIT compile; before, the run's own loop started interpreted and its first
 * second cost every node more CPU than the rest of the run. Confined to the sending thread except
 * {@link #sent()}.
 */
final class SendStream {

    /** The run identifier ({@link TtcpPayload#WARMUP_RUN} for the warm-up). */
    final long run;
    /** Data messages in the stream. */
    final int count;
    /** When each message was sent, by sequence number, microseconds since the epoch. */
    final long[] sentMicros;
    /** CPU time per message over the stream. */
    final CpuMeter cpu;
    /** What the report calls one of its messages ("message", "warm-up message"). */
    final String noun;
    /** Sends that failed, and why (first failure of each kind first). */
    final Map<String, Integer> failures = new LinkedHashMap<>();
    int failed;
    long backpressureNanos;
    long backpressureTimeouts;
    long lastNanos;
    private volatile int sent;

    /**
     * @param run        the run identifier; {@link TtcpPayload#WARMUP_RUN} for the warm-up
     * @param count      data messages in the stream
     * @param keepTimes  whether to keep every send time (the warm-up does not)
     * @param cpu        its CPU meter
     * @param noun       what a message of the stream is called in progress lines
     */
    SendStream(long run, int count, boolean keepTimes, CpuMeter cpu, String noun) {
        this.run = run;
        this.count = count;
        // the warm-up writes its times into one slot: the same store, no array of its size
        this.sentMicros = new long[keepTimes ? count : 1];
        this.cpu = cpu;
        this.noun = noun;
    }

    /** Where send time {@code seq} goes: its own slot, or the warm-up's only one. */
    int slot(int seq) {
        return seq % sentMicros.length;
    }

    /** Messages handed to the socket so far, failed ones included (any thread). */
    int sent() {
        return sent;
    }

    void sent(int n) {
        sent = n;
    }
}
