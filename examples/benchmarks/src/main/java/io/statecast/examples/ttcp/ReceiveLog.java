package io.statecast.examples.ttcp;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * What a receiver got: for each data message's first copy, in arrival order, its sequence
 * number, send time and receive time; duplicates and payloads that failed their checks are
 * counted. One thread (the receiver's) owns it.
 */
final class ReceiveLog {

    /** Most messages a run may have: ten million, 240 MB of columns at most. */
    static final int MAX_COUNT = 10_000_000;

    private int count;
    private long run;
    private int size;
    private BitSet seen;
    private int distinct;
    private long duplicates;
    /** First copies that arrived after a higher sequence number had: delivery out of the send order. */
    private long outOfOrder;
    /** The highest sequence number received so far, -1 before the first. */
    private int highest = -1;
    private long corrupt;
    private long foreign;
    private final LongColumn seq;
    private final LongColumn sent;
    private final LongColumn received;

    /** A log that keeps every message's times (up to {@link #MAX_COUNT}). */
    ReceiveLog() {
        this(MAX_COUNT);
    }

    /**
     * A log that keeps the times of the first {@code columnCap} messages and counts the rest: a
     * warm-up's log, which takes the measured run's code path without its memory.
     */
    ReceiveLog(int columnCap) {
        seq = new LongColumn(columnCap);
        sent = new LongColumn(columnCap);
        received = new LongColumn(columnCap);
    }

    /**
     * Records a data message received at {@code receivedMicros}.
     *
     * @return true if it was the first copy of its sequence number in this run
     */
    boolean record(TtcpPayload.Data d, long receivedMicros) {
        if (seen == null) {
            if (d.count() > MAX_COUNT) {
                corrupt++;
                return false;
            }
            run = d.run();
            count = d.count();
            size = d.size();
            seen = new BitSet(count);
        } else if (d.run() != run || d.count() != count) {
            foreign++;
            return false;
        }
        if (seen.get(d.seq())) {
            duplicates++;
            return false;
        }
        seen.set(d.seq());
        distinct++;
        if (d.seq() < highest) {
            outOfOrder++;
        } else {
            highest = d.seq();
        }
        seq.add(d.seq());
        sent.add(d.sentMicros());
        received.add(receivedMicros);
        return true;
    }

    /** Counts a payload that was not a well-formed ttcp payload. */
    void corrupt() {
        corrupt++;
    }

    boolean started() {
        return seen != null;
    }

    /** Every sequence number of the run arrived. */
    boolean complete() {
        return seen != null && distinct == count;
    }

    long run() {
        return run;
    }

    /** Data messages in the run (0 until the first arrived). */
    int count() {
        return count;
    }

    /** Payload size of the run's messages (0 until the first arrived). */
    int size() {
        return size;
    }

    int distinct() {
        return distinct;
    }

    long duplicates() {
        return duplicates;
    }

    /**
     * First copies that arrived after one with a higher sequence number: 0 when the messages
     * reached the application in the order the (single) sender sent them.
     */
    long outOfOrder() {
        return outOfOrder;
    }

    long corruptCount() {
        return corrupt;
    }

    /** Data messages of another run or count than the first one seen (a stale sender). */
    long foreign() {
        return foreign;
    }

    /** Sequence numbers not received, out of {@code expected} (the run's count if known). */
    int missing(int expected) {
        int n = count > 0 ? count : expected;
        return Math.max(0, n - distinct);
    }

    /**
     * Missing sequence numbers as inclusive ranges {@code [from, to]}, at most {@code maxRanges}.
     *
     * @param expected the count to assume if no message arrived
     */
    List<int[]> missingRanges(int expected, int maxRanges) {
        int n = count > 0 ? count : expected;
        List<int[]> ranges = new ArrayList<>();
        BitSet s = seen != null ? seen : new BitSet();
        int i = s.nextClearBit(0);
        while (i < n && ranges.size() < maxRanges) {
            int end = Math.min(n, s.nextSetBit(i) < 0 ? n : s.nextSetBit(i)) - 1;
            ranges.add(new int[] {i, end});
            i = s.nextClearBit(end + 1);
        }
        return ranges;
    }

    long[] seqs() {
        return seq.toArray();
    }

    long[] sentMicros() {
        return sent.toArray();
    }

    long[] receivedMicros() {
        return received.toArray();
    }
}
