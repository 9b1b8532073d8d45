package io.statecast.overlay.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MessageIdsTest {

    private static final long SEED = 0x5eed_1d5L;

    @Test
    void shouldNeverRepeatAnId() {
        MessageIds ids = new MessageIds(new SplittableRandom(SEED));
        long[] drawn = new long[1_000_000];
        for (int i = 0; i < drawn.length; i++) {
            drawn[i] = ids.next();
        }
        Arrays.sort(drawn);
        for (int i = 1; i < drawn.length; i++) {
            assertNotEquals(drawn[i - 1], drawn[i], "ID " + drawn[i] + " repeated (seed " + SEED + ")");
        }
    }

    /**
     * A counter, or any affine map of one (a·n + b mod 2^64), gives consecutive IDs one constant
     * difference; and the next ID of a plain counter is the captured one plus one.
     */
    @Test
    void shouldNotLetOneIdPredictTheNext() {
        MessageIds ids = new MessageIds(new SecureRandom());
        int n = 100_000;
        long prev = ids.next();
        Map<Long, Integer> differences = new HashMap<>();
        int[] bitOnes = new int[64];
        for (int i = 0; i < n; i++) {
            long id = ids.next();
            assertNotEquals(prev + 1, id, "the ID after " + prev + " is its successor");
            assertNotEquals(prev ^ 1, id);
            differences.merge(id - prev, 1, Integer::sum);
            long changed = id ^ prev;
            for (int b = 0; b < 64; b++) {
                bitOnes[b] += (int) (changed >>> b) & 1;
            }
            prev = id;
        }
        int mostCommon = differences.values().stream().max(Integer::compare).orElseThrow();
        assertTrue(mostCommon <= 2, "a difference between consecutive IDs recurs " + mostCommon + " times of " + n);
        // every bit flips between consecutive IDs about half the time (a counter flips its low bits
        // always or every other time, its high bits never): within 5 standard deviations of n/2
        double sd = Math.sqrt(n / 4.0);
        for (int b = 0; b < 64; b++) {
            assertTrue(Math.abs(bitOnes[b] - n / 2.0) < 5 * sd, "bit " + b + " flipped " + bitOnes[b] + " times of " + n);
        }
    }

    @Test
    void shouldDrawItsKeyFromTheGenerator() {
        long[] a = draw(new MessageIds(new SplittableRandom(SEED)), 300);
        long[] same = draw(new MessageIds(new SplittableRandom(SEED)), 300);
        long[] other = draw(new MessageIds(new SplittableRandom(SEED + 1)), 300);
        assertEquals(Arrays.toString(a), Arrays.toString(same), "a seeded generator gives the same IDs run by run");
        int equal = 0;
        for (int i = 0; i < a.length; i++) {
            equal += a[i] == other[i] ? 1 : 0;
        }
        assertEquals(0, equal, "another seed gives other IDs (seed " + SEED + ")");
    }

    /** A service that orders by MessageID gets a counter of its own: consecutive, from its own start. */
    @Test
    void shouldCountEachServiceOnItsOwnWhenAsked() {
        MessageIds ids = new MessageIds(new SplittableRandom(SEED));
        long a0 = ids.nextInSequence(4);
        long b0 = ids.nextInSequence(5);
        ids.next();
        assertEquals(a0 + 1, ids.nextInSequence(4), "the enciphered IDs between do not touch the counter");
        assertEquals(b0 + 1, ids.nextInSequence(5));
        assertNotEquals(a0, b0, "two services start apart (seed " + SEED + ")");
        assertEquals(a0, new MessageIds(new SplittableRandom(SEED)).nextInSequence(4), "the start comes from the seed");
    }

    private static long[] draw(MessageIds ids, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = ids.next();
        }
        return out;
    }
}
