package io.statecast.messagestore.flow;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The AIMD window on a simulated path, seeded: a source that sends whenever the window lets it,
 * each message a round trip (payload and acknowledgement) that random loss or a capacity limit
 * can drop; a lost round trip times out after {@value #RTO_TICKS} ticks and is retried, and the
 * second timeout of a message is the store's congestion signal, as {@code ServiceInstance} sends
 * it. Random loss alone must not collapse the window; a path over its capacity must make it back
 * off. Run again with {@code -Daimd.seed=N}.
 */
class AimdWindowSimulationTest {

    private static final int WINDOW = 1024;
    private static final int TICKS = 4_000;
    private static final int RTO_TICKS = 3;

    private final long seed = Long.getLong("aimd.seed", System.nanoTime());

    @Test
    void randomLossShouldNotCollapseTheWindow() {
        for (double loss : new double[] {0.05, 0.10, 0.20}) {
            Result r = run(new Random(seed), loss, Integer.MAX_VALUE);
            assertTrue(r.smallestLate >= WINDOW * 3 / 4, "at " + loss + " datagram loss the window fell to "
                    + r.smallestLate + " (" + r.halvings + " halvings); seed " + seed + " (-Daimd.seed=" + seed + ")");
            assertTrue(r.repeats > 0, "the simulation repeated no timeout at " + loss + "; seed " + seed);
        }
    }

    @Test
    void aPathOverItsCapacityShouldMakeItBackOff() {
        for (double loss : new double[] {0.0, 0.05}) {
            // 100 round trips per tick get through; the window's 1,024 in flight offer about 300
            Result r = run(new Random(seed), loss, 100);
            assertTrue(r.halvings > 0 && r.averageLate < WINDOW / 2, "over capacity at " + loss + " loss: "
                    + r.halvings + " halvings, average window " + r.averageLate + "; seed " + seed
                    + " (-Daimd.seed=" + seed + ")");
        }
    }

    private record Result(int smallestLate, double averageLate, long halvings, long repeats) {
    }

    /** One message in flight: its next attempt's tick and how many times it timed out. */
    private static final class Msg {
        int timeouts;
    }

    /**
     * @param loss     datagram loss (a round trip fails with 1 - (1 - loss)²)
     * @param capacity round trips the path carries per tick; the rest are dropped
     */
    private static Result run(Random rnd, double loss, int capacity) {
        AimdWindow w = new AimdWindow(WINDOW, 0, 0);
        List<ArrayDeque<Msg>> due = new ArrayList<>();
        for (int i = 0; i <= RTO_TICKS; i++) {
            due.add(new ArrayDeque<>());
        }
        long signals = 0;
        long completions = 0;
        int inFlight = 0;
        int smallest = Integer.MAX_VALUE;
        double sum = 0;
        for (int t = 0; t < TICKS; t++) {
            // attempts of this tick: retries whose timer fired now, then new messages the window admits
            ArrayDeque<Msg> attempts = due.get(t % due.size());
            List<Msg> now = new ArrayList<>(attempts);
            attempts.clear();
            int window = w.update(signals, completions, inFlight);
            while (inFlight < window) {
                now.add(new Msg());
                inFlight++;
                window = w.update(signals, completions, inFlight);
            }
            int carried = 0;
            for (Msg m : now) {
                boolean through = carried < capacity && rnd.nextDouble() >= loss && rnd.nextDouble() >= loss;
                carried++;
                if (through) {
                    inFlight--;
                    completions++;
                } else {
                    // times out RTO_TICKS later, then is retried
                    if (++m.timeouts == 2) {
                        signals++;
                    }
                    due.get((t + RTO_TICKS) % due.size()).add(m);
                }
            }
            int current = w.update(signals, completions, inFlight);
            if (t >= TICKS / 2) {
                smallest = Math.min(smallest, current);
                sum += current;
            }
        }
        return new Result(smallest, sum / (TICKS - TICKS / 2), w.halvings(), signals);
    }
}
