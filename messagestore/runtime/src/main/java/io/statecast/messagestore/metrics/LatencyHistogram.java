package io.statecast.messagestore.metrics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fixed-bucket histogram of durations in nanoseconds: four buckets per power of two (relative
 * error under 19 %), from 1 ns to beyond an hour, in 2 KiB. Recording is lock-free and safe from
 * any number of threads; reading gives a consistent-enough snapshot (buckets are read one by one).
 */
public final class LatencyHistogram {

    private static final int SUB_BITS = 2;
    private static final int SUB = 1 << SUB_BITS;
    private static final int BUCKETS = 64 * SUB;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final LongAdder total = new LongAdder();
    private final LongAdder sum = new LongAdder();
    private final AtomicLong max = new AtomicLong();

    /** Records one duration (negative values count as 0). */
    public void record(long nanos) {
        long v = Math.max(0, nanos);
        counts.incrementAndGet(index(v));
        total.increment();
        sum.add(v);
        long m = max.get();
        while (v > m && !max.compareAndSet(m, v)) {
            m = max.get();
        }
    }

    static int index(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int exp = 63 - Long.numberOfLeadingZeros(v);
        int sub = (int) (v >>> (exp - SUB_BITS)) & (SUB - 1);
        return (exp - SUB_BITS + 1) * SUB + sub;
    }

    /** The largest value that falls in bucket {@code i}. */
    static long upperBound(int i) {
        if (i < SUB) {
            return i;
        }
        int exp = i / SUB + SUB_BITS - 1;
        long sub = i % SUB;
        long lower = (1L << exp) + (sub << (exp - SUB_BITS));
        long width = 1L << (exp - SUB_BITS);
        return lower + width - 1; // exp <= 62 for any long >= 0, so this stays below 2^63
    }

    /** Durations recorded so far (for a meter; no snapshot). */
    long count() {
        return total.sum();
    }

    /** Their sum in nanoseconds (for a meter; no snapshot). */
    long totalNanos() {
        return sum.sum();
    }

    /** A snapshot of the distribution. */
    public Snapshot snapshot() {
        long[] c = new long[BUCKETS];
        long n = 0;
        for (int i = 0; i < BUCKETS; i++) {
            c[i] = counts.get(i);
            n += c[i];
        }
        long t = sum.sum();
        return new Snapshot(n, t, n == 0 ? 0 : t / Math.max(1, total.sum()), percentile(c, n, 0.50),
                percentile(c, n, 0.90), percentile(c, n, 0.99), max.get());
    }

    private static long percentile(long[] c, long n, double q) {
        if (n == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * n);
        long seen = 0;
        for (int i = 0; i < c.length; i++) {
            seen += c[i];
            if (seen >= rank) {
                return upperBound(i);
            }
        }
        return upperBound(c.length - 1);
    }

    /**
     * Summary of recorded durations (percentiles are bucket upper bounds).
     *
     * @param count how many were recorded
     * @param totalNanos their sum (differences of two snapshots give the mean in between)
     * @param meanNanos mean
     * @param p50Nanos median
     * @param p90Nanos 90th percentile
     * @param p99Nanos 99th percentile
     * @param maxNanos largest
     */
    public record Snapshot(long count, long totalNanos, long meanNanos, long p50Nanos, long p90Nanos, long p99Nanos, long maxNanos) {

        /** E.g. {@code n=120 mean=14.2µs p50=12.3µs p90=20.5µs p99=41.0µs max=1.2ms}. */
        @Override
        public String toString() {
            return "n=" + count + " mean=" + human(meanNanos) + " p50=" + human(p50Nanos) + " p90=" + human(p90Nanos)
                    + " p99=" + human(p99Nanos) + " max=" + human(maxNanos);
        }

        static String human(long nanos) {
            if (nanos < 1_000) {
                return nanos + "ns";
            }
            if (nanos < 1_000_000) {
                return String.format(java.util.Locale.ROOT, "%.1fµs", nanos / 1e3);
            }
            if (nanos < 1_000_000_000) {
                return String.format(java.util.Locale.ROOT, "%.1fms", nanos / 1e6);
            }
            return String.format(java.util.Locale.ROOT, "%.2fs", nanos / 1e9);
        }
    }
}
