package io.statecast.messagestore.action;

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
    void shouldRefuseNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, Double.NaN, 0));
    }
}
