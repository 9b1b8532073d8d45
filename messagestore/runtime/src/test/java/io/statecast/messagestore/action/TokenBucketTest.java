package io.statecast.messagestore.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void shouldAllowTheBurstThenTheRate() {
        TokenBucket b = new TokenBucket(3, 100, 0);
        assertTrue(b.tryTake(0));
        assertTrue(b.tryTake(0));
        assertTrue(b.tryTake(0));
        assertFalse(b.tryTake(0), "burst used");
        assertFalse(b.tryTake(9 * MS), "0.9 tokens after 9 ms at 100/s");
        assertTrue(b.tryTake(10 * MS), "one token per 10 ms");
        assertFalse(b.tryTake(10 * MS));
        assertTrue(b.tryTake(1_000 * MS));
        assertTrue(b.tryTake(1_000 * MS));
        assertTrue(b.tryTake(1_000 * MS));
        assertFalse(b.tryTake(1_000 * MS), "refill is capped at the burst");
    }

    @Test
    void shouldGoIntoDebtForATakenStepAndRepayItFirst() {
        TokenBucket b = new TokenBucket(2, 100, 0);
        assertTrue(b.hasToken(0));
        for (int i = 0; i < 5; i++) {
            b.take(0); // one step of five calls, on a burst of two
        }
        assertFalse(b.hasToken(0));
        assertEquals(40 * MS, b.nanosUntilToken(0), "three calls of debt and one to take: 40 ms at 100/s");
        assertFalse(b.hasToken(39 * MS));
        assertTrue(b.hasToken(40 * MS));
        assertEquals(0, b.nanosUntilToken(40 * MS));
    }

    @Test
    void shouldNotOverflowWhateverTheDebt() {
        TokenBucket b = new TokenBucket(1, 0.001, 0); // a call costs 1,000 s
        for (int i = 0; i < 100_000_000; i++) {
            b.take(0);
        }
        assertTrue(b.nanosUntilToken(0) > 0, "a debt past the floor stays a debt");
        assertFalse(b.hasToken(1_500_000_000_000_000_000L), "silent for decades (the floor is ~73 years)");
    }

    @Test
    void shouldRefuseNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, Double.NaN, 0));
    }
}
