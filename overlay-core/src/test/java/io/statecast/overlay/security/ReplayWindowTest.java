package io.statecast.overlay.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplayWindowTest {

    private static final int W = ReplayWindow.SIZE;

    @Test
    void shouldAcceptEachCounterOnceInOrder() {
        ReplayWindow w = new ReplayWindow();
        for (long c = 0; c < 5 * W; c++) {
            assertTrue(w.accept(c), "first " + c);
            assertFalse(w.accept(c), "again " + c);
        }
        assertEquals(5L * W - 1, w.highest());
    }

    @Test
    void shouldAcceptOutOfOrderCountersWithinTheWindowOnce() {
        ReplayWindow w = new ReplayWindow();
        assertTrue(w.accept(2000));
        for (long c = 1999; c > 2000 - W; c--) {
            assertTrue(w.accept(c), "late " + c);
        }
        for (long c = 2000; c > 2000 - W; c--) {
            assertFalse(w.accept(c), "replayed " + c);
        }
        assertEquals(2000, w.highest(), "late counters do not move the window");
    }

    @Test
    void shouldRefuseACounterAsFarBehindAsTheWindowIsWideAndAcceptOneLess() {
        ReplayWindow w = new ReplayWindow();
        assertTrue(w.accept(5000));
        assertTrue(w.accept(5000 - (W - 1)), "the oldest counter the window still holds");
        assertFalse(w.accept(5000 - W), "one further behind");
        assertFalse(w.accept(0), "far behind");
    }

    @Test
    void shouldForgetSlotsTheWindowSlidPastSoTheirNewCountersAreAccepted() {
        ReplayWindow w = new ReplayWindow();
        assertTrue(w.accept(10));
        assertTrue(w.accept(10 + W - 1)); // 10 is still inside, its bit set
        assertFalse(w.accept(10));
        assertTrue(w.accept(10 + W), "same slot as 10, a new counter");
        assertFalse(w.accept(10), "10 is now behind the window");
        // a jump of more than a window clears everything, yet counters just below the jump are new
        assertTrue(w.accept(100_000));
        assertTrue(w.accept(100_000 - 1));
        assertTrue(w.accept(100_000 - (W - 1)));
        assertFalse(w.accept(100_000 - W));
    }

    @Test
    void shouldRefuseNegativeCounters() {
        ReplayWindow w = new ReplayWindow();
        assertFalse(w.accept(-1));
        assertTrue(w.accept(0));
        assertFalse(w.accept(Long.MIN_VALUE));
    }

    /** The window against the ideal it approximates, on seeded random arrivals (reordered, repeated, jumping). */
    @Test
    void shouldMatchTheIdealOnRandomArrivals() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        ReplayWindow w = new ReplayWindow();
        Set<Long> seen = new HashSet<>();
        long highest = -1;
        long next = 0;
        for (int i = 0; i < 200_000; i++) {
            long c = switch (random.nextInt(10)) {
                case 0 -> Math.max(0, next - random.nextInt(2 * W)); // late or replayed
                case 1 -> next + random.nextInt(3 * W);                // a jump
                default -> next++;
            };
            next = Math.max(next, c + 1);
            boolean ideal = !seen.contains(c) && (c > highest || highest - c < W);
            assertEquals(ideal, w.accept(c), "counter " + c + " at step " + i + ", highest " + highest + " (seed " + seed + ")");
            if (ideal) {
                seen.add(c);
                highest = Math.max(highest, c);
            }
        }
    }
}
