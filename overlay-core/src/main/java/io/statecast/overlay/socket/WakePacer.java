package io.statecast.overlay.socket;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Spaces the wake-ups of the application's receiving thread at least an interval apart
 * ({@code overlay.buffers.wakeIntervalMicros}). At a forwarding node of a 100 Mbit/s chain the
 * messages arrive one at a time, about 100 µs apart, and each one woke the application's thread
 * (a futex call, a context switch and an inter-processor interrupt on each side): 15–22 % of a
 * receiving node's CPU. Held to one wake-up per interval, the thread takes everything that
 * arrived meanwhile in one go.
 *
 * <p>A request that finds the last wake-up at least an interval ago wakes at once, so a message
 * after a quiet spell adds no latency; a request within the interval is served when the interval
 * ends, by one deferred wake-up however many requests came; an urgent request (a half-full
 * queue) wakes at once. Thread-safe: a race between two requesters costs at most an extra
 * wake-up.
 */
final class WakePacer {

    /** Runs a task once, after a delay. */
    @FunctionalInterface
    interface Deferrer {
        /** Runs {@code task} once, {@code delayNanos} from now, on any thread. */
        void defer(Runnable task, long delayNanos);
    }

    private final long intervalNanos;
    private final LongSupplier clock;
    private final Deferrer deferrer;
    private final Runnable wake;
    private final AtomicBoolean deferred = new AtomicBoolean();
    private volatile long lastWakeNanos;

    /**
     * @param intervalNanos least time between wake-ups; 0 wakes at every request
     * @param clock         monotonic nanoseconds
     * @param deferrer      where the deferred wake-up runs
     * @param wake          wakes the thread (cheap, and a no-op, when it is not waiting)
     */
    WakePacer(long intervalNanos, LongSupplier clock, Deferrer deferrer, Runnable wake) {
        if (intervalNanos < 0) {
            throw new IllegalArgumentException("interval must be >= 0, got " + intervalNanos);
        }
        this.intervalNanos = intervalNanos;
        this.clock = clock;
        this.deferrer = deferrer;
        this.wake = wake;
        this.lastWakeNanos = clock.getAsLong() - intervalNanos;
    }

    /**
     * Asks for a wake-up for what was delivered since the last one.
     *
     * @param urgent wake at once whatever the interval (the queue is filling)
     */
    void request(boolean urgent) {
        long now = clock.getAsLong();
        long sinceLast = now - lastWakeNanos;
        if (urgent || sinceLast >= intervalNanos) {
            wakeNow(now);
        } else if (deferred.compareAndSet(false, true)) {
            deferrer.defer(this::deferredWake, intervalNanos - sinceLast);
        }
    }

    private void deferredWake() {
        deferred.set(false);
        wakeNow(clock.getAsLong());
    }

    private void wakeNow(long now) {
        lastWakeNanos = now;
        wake.run();
    }
}
