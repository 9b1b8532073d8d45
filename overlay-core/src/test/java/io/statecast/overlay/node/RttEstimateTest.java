package io.statecast.overlay.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** RFC 6298's smoothing, sample by sample. */
class RttEstimateTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    @Test
    void shouldSetSrttToTheFirstSampleAndRttvarToHalfOfIt() {
        RttEstimate e = RttEstimate.first(100);
        assertEquals(100.0, e.srttMicros());
        assertEquals(50.0, e.rttvarMicros());
        assertEquals(1, e.samples());
    }

    @Test
    void shouldSmoothLaterSamplesWithAnEighthAndAQuarter() {
        // RTTVAR first (with the old SRTT), then SRTT — the order RFC 6298 (2.3) prescribes
        RttEstimate e = RttEstimate.first(100).next(200);
        assertEquals(62.5, e.rttvarMicros(), "3/4 * 50 + 1/4 * |100 - 200|");
        assertEquals(112.5, e.srttMicros(), "7/8 * 100 + 1/8 * 200");
        e = e.next(100);
        assertEquals(50.0, e.rttvarMicros(), "3/4 * 62.5 + 1/4 * |112.5 - 100|");
        assertEquals(110.9375, e.srttMicros(), "7/8 * 112.5 + 1/8 * 100");
        assertEquals(3, e.samples());
        assertEquals(0.1109375, e.srttMillis(), 1e-12);
        assertEquals(0.05, e.rttvarMillis(), 1e-12);
    }

    @Test
    void shouldConvergeOnASteadyRttWithVariationDecayingToZero() {
        RttEstimate e = RttEstimate.first(1_000);
        for (int i = 0; i < 200; i++) {
            e = e.next(40_000);
        }
        assertEquals(40_000, e.srttMicros(), 1.0);
        assertTrue(e.rttvarMicros() < 1.0, "rttvar " + e.rttvarMicros());
    }

    @Test
    void shouldStayWithinTheSamplesRange() {
        Random r = new Random(SEED);
        long lo = 5_000;
        long hi = 9_000;
        long first = lo + r.nextInt((int) (hi - lo));
        RttEstimate e = RttEstimate.first(first);
        // RTTVAR starts at R/2 and moves toward |SRTT - R|, which never exceeds hi - lo
        double rttvarBound = Math.max(first / 2.0, hi - lo);
        for (int i = 0; i < 1000; i++) {
            e = e.next(lo + r.nextInt((int) (hi - lo)));
            assertTrue(e.srttMicros() >= lo && e.srttMicros() <= hi, "seed=" + SEED + " srtt " + e.srttMicros());
            assertTrue(e.rttvarMicros() <= rttvarBound, "seed=" + SEED + " rttvar " + e.rttvarMicros());
        }
    }

    @Test
    void shouldRefuseNegativeSamples() {
        assertThrows(IllegalArgumentException.class, () -> RttEstimate.first(-1));
        assertThrows(IllegalArgumentException.class, () -> RttEstimate.first(10).next(-1));
    }
}
