package io.statecast.overlay.substrate;

import java.util.BitSet;

/**
 * Counts what a receiver got of sequence numbers 0..n-1: distinct, duplicates, corrupt, out of
 * order. Thread-safe (one monitor); the receivers in these tests are single I/O threads.
 */
final class ExchangeCounter {

    private final BitSet seen = new BitSet();
    private long received;
    private long duplicates;
    private long corrupt;
    private long outOfOrder;
    private long highest = -1;

    /** Records one payload check result ({@link TestFrames#check}). */
    synchronized void record(long seq) {
        received++;
        if (seq < 0 || seq > Integer.MAX_VALUE) {
            corrupt++;
            return;
        }
        if (seen.get((int) seq)) {
            duplicates++;
            return;
        }
        seen.set((int) seq);
        if (seq < highest) {
            outOfOrder++;
        } else {
            highest = seq;
        }
    }

    synchronized long received() {
        return received;
    }

    synchronized long distinct() {
        return seen.cardinality();
    }

    synchronized long duplicates() {
        return duplicates;
    }

    synchronized long corrupt() {
        return corrupt;
    }

    synchronized long outOfOrder() {
        return outOfOrder;
    }

    synchronized long highest() {
        return highest;
    }

    @Override
    public synchronized String toString() {
        return "received=" + received + " distinct=" + seen.cardinality() + " duplicates=" + duplicates
                + " corrupt=" + corrupt + " outOfOrder=" + outOfOrder;
    }
}
