package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TtcpStatsTest {

    @Test
    void percentileShouldBeTheNearestRank() {
        double[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, TtcpStats.percentile(v, 50));
        assertEquals(10, TtcpStats.percentile(v, 99));
        assertEquals(1, TtcpStats.percentile(v, 0));
        assertEquals(10, TtcpStats.percentile(v, 100));
        assertEquals(7, TtcpStats.percentile(new double[] {7}, 99));
        assertThrows(IllegalArgumentException.class, () -> TtcpStats.percentile(new double[0], 50));
        assertThrows(IllegalArgumentException.class, () -> TtcpStats.percentile(v, 101));
    }

    @Test
    void throughputShouldFollowTheBlueprintFormula() {
        // messages sent every 1 ms, each received 5 ms later, 1,000 bytes, window of 3:
        // window ending at j spans T_received,j - T_sent,j-2 = 5 ms + 2 ms = 7 ms for 24,000 bits
        long[] sent = {0, 1_000, 2_000, 3_000, 4_000};
        long[] recv = {5_000, 6_000, 7_000, 8_000, 9_000};
        double[] kbps = TtcpStats.movingThroughputKbps(sent, recv, 1000, 3);
        assertEquals(3, kbps.length);
        for (double k : kbps) {
            assertEquals(24_000 / 7e-3 / 1e3, k, 1e-6);
        }
        assertEquals(0, TtcpStats.movingThroughputKbps(sent, recv, 1000, 6).length);
    }

    @Test
    void throughputAtTheLinkRateShouldReadAsTheLinkRate() {
        // 10,000 messages of 1,250 bytes at exactly 10,000 messages/s is 100 Mbit/s; constant delay
        int n = 10_000;
        long[] sent = new long[n];
        long[] recv = new long[n];
        for (int i = 0; i < n; i++) {
            sent[i] = 1_000_000L + i * 100L;
            recv[i] = sent[i] + 300;
        }
        double[] kbps = TtcpStats.movingThroughputKbps(sent, recv, 1250, 500);
        // the window spans 499 intervals plus one delay: 500 * 10,000 bits / (49,900 + 300) us
        assertEquals(500 * 10_000.0 / 50_200 * 1000, kbps[0], 1e-6);
        assertTrue(kbps[kbps.length - 1] > 99_000 && kbps[kbps.length - 1] < 100_000, String.valueOf(kbps[0]));
    }

    @Test
    void slopeShouldBeTheLeastSquaresFit() {
        assertEquals(2.0, TtcpStats.slope(new double[] {0, 1, 2, 3}, new double[] {1, 3, 5, 7}), 1e-12);
        assertEquals(0.0, TtcpStats.slope(new double[] {0, 1, 2}, new double[] {4, 4, 4}), 1e-12);
        assertTrue(Double.isNaN(TtcpStats.slope(new double[] {1}, new double[] {1})));
        assertTrue(Double.isNaN(TtcpStats.slope(new double[] {2, 2}, new double[] {1, 5})));
    }

    @Test
    void sortedShouldNotTouchItsInput() {
        double[] v = {3, 1, 2};
        assertArrayEquals(new double[] {1, 2, 3}, TtcpStats.sorted(v));
        assertArrayEquals(new double[] {3, 1, 2}, v);
    }
}
