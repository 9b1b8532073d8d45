package io.statecast.examples.ttcp;

import java.util.Arrays;

/** A growable column of longs with a hard cap, so a long run cannot exhaust the heap. */
final class LongColumn {

    private final int cap;
    // small at first: a warm-up's short-lived logs grow theirs as the run's log does, so the JIT
    // compiles the growth instead of a trap on it
    private long[] values = new long[64];
    private int size;
    private long refused;

    /** @param cap most values kept; later ones are counted in {@link #refused()} */
    LongColumn(int cap) {
        this.cap = cap;
    }

    /** Appends {@code v}, or counts it as refused when full. */
    void add(long v) {
        if (size == cap) {
            refused++;
            return;
        }
        if (size == values.length) {
            values = Arrays.copyOf(values, (int) Math.min(cap, values.length * 2L));
        }
        values[size++] = v;
    }

    long get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i + " >= " + size);
        }
        return values[i];
    }

    int size() {
        return size;
    }

    /** Values offered beyond the cap. */
    long refused() {
        return refused;
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
