package io.statecast.specserver;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs at WARN at most {@code burst} messages per {@code periodNanos}; the rest are counted and the
 * count is reported with the next message that gets through. Keeps a flood of bad connections from
 * flooding the log. Thread-safe.
 */
final class RateLimitedLog {

    private final Logger log;
    private final LongSupplier nanoClock;
    private final int burst;
    private final long periodNanos;
    private long windowStart;
    private int inWindow;
    private long suppressed;

    RateLimitedLog(Logger log, int burst, long period, TimeUnit unit) {
        this(log, System::nanoTime, burst, period, unit);
    }

    RateLimitedLog(Logger log, LongSupplier nanoClock, int burst, long period, TimeUnit unit) {
        this.log = log;
        this.nanoClock = nanoClock;
        this.burst = burst;
        this.periodNanos = unit.toNanos(period);
        this.windowStart = nanoClock.getAsLong() - periodNanos;
    }

    /**
     * @param format SLF4J format
     * @param args arguments; a trailing Throwable is logged with its stack
     */
    void warn(String format, Object... args) {
        long dropped;
        synchronized (this) {
            long now = nanoClock.getAsLong();
            if (now - windowStart >= periodNanos) {
                windowStart = now;
                inWindow = 0;
            }
            if (inWindow >= burst) {
                suppressed++;
                return;
            }
            inWindow++;
            dropped = suppressed;
            suppressed = 0;
        }
        if (dropped > 0) {
            log.warn("({} similar messages suppressed)", dropped);
        }
        log.warn(format, args);
    }
}
