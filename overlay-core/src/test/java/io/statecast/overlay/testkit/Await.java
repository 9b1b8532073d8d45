package io.statecast.messagestore.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition with a deadline (never sleep-and-hope). */
public final class Await {

    private Await() {
    }

    /** Polls {@code condition} every millisecond; fails with {@code message} after {@code seconds}. */
    public static void until(BooleanSupplier condition, long seconds, Supplier<String> message) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("not within " + seconds + " s: " + message.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
