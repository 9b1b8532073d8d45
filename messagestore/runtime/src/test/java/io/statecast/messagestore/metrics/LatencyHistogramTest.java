package io.statecast.messagestore.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    @Test
    void shouldPlaceEveryValueInABucketThatHoldsIt() {
        Random rnd = new Random(SEED);
        for (int i = 0; i < 100_000; i++) {
            long v = (rnd.nextLong() >>> 1) >>> rnd.nextInt(63);
            int b = LatencyHistogram.index(v);
            assertTrue(v <= LatencyHistogram.upperBound(b), v + " in bucket " + b + ", seed " + SEED);
            assertTrue(b == 0 || v > LatencyHistogram.upperBound(b - 1), v + " above bucket " + (b - 1) + ", seed " + SEED);
        }
    }

    @Test
    void shouldReportPercentilesWithinABucketsWidth() {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 1; i <= 1000; i++) {
            h.record(i * 1_000L);
        }
        LatencyHistogram.Snapshot s = h.snapshot();
        assertEquals(1000, s.count());
        assertEquals(500_500, s.meanNanos());
        assertEquals(1_000_000, s.maxNanos());
        assertTrue(s.p50Nanos() >= 500_000 && s.p50Nanos() < 500_000 * 1.2, s.toString());
        assertTrue(s.p99Nanos() >= 990_000 && s.p99Nanos() < 990_000 * 1.2, s.toString());
        assertTrue(s.toString().startsWith("n=1000 mean=500.5µs"), s.toString());
    }
}
