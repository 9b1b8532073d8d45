package io.statecast.overlay.testkit;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition with a deadline, polling (never a fixed sleep): the condition decides,
 * the deadline only bounds a test that would otherwise hang.
 */
public final class Await {

    /** The longest pause between two polls: a condition may be costly (an HTTP request, a scan). */
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private Await() {
    }

    /** Polls {@code condition}; fails with {@code message} if it does not hold within {@code seconds}. */
    public static void until(BooleanSupplier condition, long seconds, Supplier<String> message) {
        until(condition, Duration.ofSeconds(seconds), message);
    }

    /** Polls {@code condition}; fails with {@code message} if it does not hold within {@code timeout}. */
    public static void until(BooleanSupplier condition, Duration timeout, Supplier<String> message) {
        if (!until(condition, timeout)) {
            throw new AssertionError("not within " + timeout.toMillis() + " ms: " + message.get());
        }
    }

    /** Polls {@code condition} until it holds or {@code timeout} passes; returns whether it holds. */
    public static boolean until(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 1_000; // ns; doubles up to MAX_PAUSE_NANOS so that a quick condition is seen quickly
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return condition.getAsBoolean();
            }
            LockSupport.parkNanos(pause);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting");
            }
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
        return true;
    }

    /**
     * Polls until {@code condition} holds, or {@code progress} has not changed for {@code quiet},
     * or {@code timeout} passes; returns whether it holds. For "wait for stragglers" where loss may
     * mean the target is never reached.
     */
    public static boolean untilOrQuiet(BooleanSupplier condition, LongSupplier progress, Duration quiet,
            Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long last = progress.getAsLong();
        long lastChange = System.nanoTime();
        while (!condition.getAsBoolean()) {
            long now = System.nanoTime();
            long p = progress.getAsLong();
            if (p != last) {
                last = p;
                lastChange = now;
            } else if (now - lastChange > quiet.toNanos() || now - deadline > 0) {
                return condition.getAsBoolean();
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
        }
        return true;
    }
}
