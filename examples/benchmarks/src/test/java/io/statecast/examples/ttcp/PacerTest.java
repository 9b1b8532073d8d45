package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The pacer on a virtual clock whose waits overshoot like a busy kernel's. */
class PacerTest {

    /** A virtual nanosecond clock; parking advances it by the wait plus a random overshoot. */
    private static final class VirtualTime {
        long now = 1_000_000_000L;
        long parks;
        final SplittableRandom random;
        final long maxOvershoot;

        VirtualTime(long seed, long maxOvershoot) {
            this.random = new SplittableRandom(seed);
            this.maxOvershoot = maxOvershoot;
        }

        void park(long nanos) {
            parks++;
            now += nanos + (maxOvershoot == 0 ? 0 : random.nextLong(maxOvershoot));
        }
    }

    @Test
    void averageRateShouldBeExactDespiteOvershootingWaits() throws InterruptedException {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        VirtualTime t = new VirtualTime(seed, 60_000); // waits up to 60 us late, at an 82 us period
        double rate = 12_207; // 100 Mbit/s of 1,024-byte payloads
        Pacer p = new Pacer(rate, Pacer.defaultBurst(rate), () -> t.now, t::park);
        long first = p.acquire();
        long last = first;
        int n = 10_000;
        for (int i = 1; i < n; i++) {
            long at = p.acquire();
            assertTrue(at >= last, "time went backwards, seed " + seed);
            last = at;
        }
        double achieved = (n - 1) / ((last - first) / 1e9);
        assertEquals(rate, achieved, rate * 0.002, "achieved " + achieved + " msgs/s, seed " + seed);
        assertEquals(0, p.creditLost(), "seed " + seed);
    }

    @Test
    void shouldNeverRunAheadOfTheSchedule() throws InterruptedException {
        VirtualTime t = new VirtualTime(1, 0);
        Pacer p = new Pacer(1000, 1, () -> t.now, t::park);
        long first = p.acquire();
        for (int k = 1; k <= 100; k++) {
            long at = p.acquire();
            assertTrue(at - first >= k * 1_000_000L, "token " + k + " taken " + (at - first) + " ns after the first");
        }
    }

    @Test
    void afterAStallShouldSendAtMostOneBurstBackToBack() throws InterruptedException {
        VirtualTime t = new VirtualTime(1, 0);
        Pacer p = new Pacer(1000, 5, () -> t.now, t::park);
        p.acquire();
        t.now += 1_000_000_000L; // the sender was descheduled for a second
        int immediate = 0;
        long before = t.parks;
        while (t.parks == before) {
            p.acquire();
            immediate++;
        }
        // five tokens of credit plus the one due now; then the schedule resumes
        assertEquals(7, immediate, "the token that waited is counted last");
        assertEquals(1, p.creditLost());
        assertTrue(p.maxBehindNanos() >= 999_000_000L, String.valueOf(p.maxBehindNanos()));
    }

    @Test
    void withATickShouldWakeOncePerTickNeverEarlyAndAtMostOneTickLate() throws InterruptedException {
        VirtualTime t = new VirtualTime(1, 0);
        double rate = 10_000; // a 100 us period: ten sends per 1 ms tick
        long tick = 1_000_000;
        Pacer p = new Pacer(rate, Pacer.defaultBurst(rate), tick, () -> t.now, t::park);
        long first = p.acquire();
        int n = 10_001;
        for (int k = 1; k < n; k++) {
            long at = p.acquire();
            long due = first + (long) (k * 100_000.0);
            assertTrue(at >= due, "send " + k + " left " + (due - at) + " ns early");
            assertTrue(at - due < tick, "send " + k + " left " + (at - due) + " ns late");
        }
        // one wake-up per tick, not per send: 10,000 sends over 1,000 ticks
        assertEquals(1_000, t.parks);
        assertEquals(0, p.creditLost());
    }

    @Test
    void withATickTheAverageRateShouldStayExactDespiteOvershootingWaits() throws InterruptedException {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        VirtualTime t = new VirtualTime(seed, 60_000);
        double rate = 11_597; // 95 Mbit/s of 1,024-byte payloads
        Pacer p = new Pacer(rate, Pacer.defaultBurst(rate), 1_000_000, () -> t.now, t::park);
        long first = p.acquire();
        long last = first;
        int n = 20_000;
        for (int i = 1; i < n; i++) {
            last = p.acquire();
        }
        double achieved = (n - 1) / ((last - first) / 1e9);
        assertEquals(rate, achieved, rate * 0.002, "achieved " + achieved + " msgs/s, seed " + seed);
        assertTrue(t.parks < n / 5, t.parks + " parks for " + n + " sends, seed " + seed);
    }

    @Test
    void aTicksBatchShouldNotCountAsFallingBehindEvenWithABurstOfOne() throws InterruptedException {
        VirtualTime t = new VirtualTime(1, 0);
        Pacer p = new Pacer(10_000, 1, 1_000_000, () -> t.now, t::park);
        long first = p.acquire();
        long last = first;
        for (int k = 1; k <= 10_000; k++) {
            last = p.acquire();
        }
        assertEquals(0, p.creditLost(), "ten sends per tick are the schedule, not a stall");
        assertEquals(10_000 / ((last - first) / 1e9), 10_000, 10, "the rate held");
    }

    @Test
    void unlimitedRateShouldNeverWait() throws InterruptedException {
        VirtualTime t = new VirtualTime(1, 0);
        Pacer p = new Pacer(Double.POSITIVE_INFINITY, 1, () -> t.now, t::park);
        for (int i = 0; i < 1000; i++) {
            p.acquire();
        }
        assertEquals(0, t.parks);
        assertEquals(1000, p.taken());
    }

    @Test
    void shouldRefuseNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new Pacer(0, 1, () -> 0, n -> { }));
        assertThrows(IllegalArgumentException.class, () -> new Pacer(Double.NaN, 1, () -> 0, n -> { }));
        assertThrows(IllegalArgumentException.class, () -> new Pacer(10, 0, () -> 0, n -> { }));
        assertThrows(IllegalArgumentException.class, () -> new Pacer(10, 1, -1, () -> 0, n -> { }));
        assertThrows(IllegalArgumentException.class, () -> new Pacer(10, 1, 2_000_000_000L, () -> 0, n -> { }));
    }
}
