package io.statecast.overlay.substrate;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits on a condition with a deadline (polling), for tests on real threads and sockets. */
final class Await {

    private Await() {
    }

    /** Polls {@code condition} until it holds or {@code timeout} passes; returns whether it holds. */
    static boolean until(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 1_000; // ns; grows to 1 ms
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return condition.getAsBoolean();
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(1));
        }
        return true;
    }

    /**
     * Polls until {@code progress} stops changing for {@code quiet} or {@code condition} holds;
     * for "wait for stragglers" where loss may mean the target count is never reached.
     */
    static boolean untilOrQuiet(BooleanSupplier condition, java.util.function.LongSupplier progress,
            Duration quiet, Duration timeout) {
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
