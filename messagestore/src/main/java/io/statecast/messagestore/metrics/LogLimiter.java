package io.statecast.messagestore.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets one log line through per interval and counts the ones it held back, so that a spec
 * failing on every message cannot flood the log. Lock-free; one per service and kind of problem.
 */
public final class LogLimiter {

    private final long intervalNanos;
    private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    /** One line per {@code interval} of {@code unit}. */
    public LogLimiter(long interval, TimeUnit unit) {
        this.intervalNanos = unit.toNanos(interval);
    }

    /**
     * Whether to log now; when true, {@link #takeSuppressed()} says how many were held back since.
     */
    public boolean allow() {
        long now = System.nanoTime();
        long n = next.get();
        if ((n != Long.MIN_VALUE && now - n < 0) || !next.compareAndSet(n, now + intervalNanos)) {
            suppressed.incrementAndGet();
            return false;
        }
        return true;
    }

    /** Lines held back since the last allowed one (and resets the count). */
    public long takeSuppressed() {
        return suppressed.getAndSet(0);
    }
}
