package io.statecast.overlay.substrate;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * At most one WARN line per key per interval, each saying how many events it stands for. Keys are
 * small dense integers (an enum's ordinals). Lock-free: I/O threads call it concurrently.
 */
final class RateLimitedLog {

    private final Logger log;
    private final LongSupplier clock;
    private final long intervalNanos;
    private final AtomicLongArray nextAllowed;
    private final AtomicLongArray suppressed;

    RateLimitedLog(Logger log, LongSupplier nanoClock, long intervalNanos, int keys) {
        this.log = log;
        this.clock = nanoClock;
        this.intervalNanos = intervalNanos;
        this.nextAllowed = new AtomicLongArray(keys);
        this.suppressed = new AtomicLongArray(keys);
        long now = nanoClock.getAsLong();
        for (int i = 0; i < keys; i++) {
            nextAllowed.set(i, now);
        }
    }

    /** Logs {@code message} (with {@code {}} for the event count) unless this key logged recently. */
    void warn(int key, String message, Object arg1, Object arg2) {
        long now = clock.getAsLong();
        long next = nextAllowed.get(key);
        if (now - next < 0 || !nextAllowed.compareAndSet(key, next, now + intervalNanos)) {
            suppressed.incrementAndGet(key);
            return;
        }
        long count = suppressed.getAndSet(key, 0) + 1;
        if (log.isWarnEnabled()) {
            log.warn(message + " ({} such events since the last report)", arg1, arg2, count);
        }
    }
}
