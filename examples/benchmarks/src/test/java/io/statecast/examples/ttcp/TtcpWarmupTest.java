package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class TtcpWarmupTest {

    @Test
    void aBackgroundCollectionShouldEndAndLetTheNextOneStart() throws InterruptedException {
        TtcpWarmup w = new TtcpWarmup();
        assertFalse(w.collecting(), "nothing started yet");
        assertTrue(w.collectInBackground());
        awaitTrue(() -> !w.collecting(), "the first collection ends");
        assertTrue(w.collectInBackground(), "one ended, so another may start");
        awaitTrue(() -> !w.collecting(), "the second collection ends");
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "within 60 s: " + what);
            Thread.sleep(5);
        }
    }
}
