package io.statecast.overlay.logging;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * A WARN log that lets at most {@code burst} lines per key through in each interval and counts the
 * rest, so that a flood of malformed input, a misbehaving peer or a spec failing on every message
 * cannot flood the log. The next line that gets through says how many were held back.
 *
 * <p>Keys are small dense integers (an enum's ordinals), one per kind of problem, so that one
 * flooding kind does not hide the others. Thread-safe; meant for paths that report problems, not
 * for every message.
 */
public final class RateLimitedLog {

    private final Logger log;
    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private final int burst;
    private final long[] windowStart;
    private final int[] inWindow;
    private final long[] suppressed;

    /**
     * @param log       where lines go
     * @param nanoClock the time in nanoseconds (the node's timer service, or {@code System::nanoTime})
     * @param interval  the window, positive
     * @param burst     lines per key per window, at least 1
     * @param keys      number of keys, at least 1
     */
    public RateLimitedLog(Logger log, LongSupplier nanoClock, Duration interval, int burst, int keys) {
        if (interval.isNegative() || interval.isZero() || burst < 1 || keys < 1) {
            throw new IllegalArgumentException("interval " + interval + ", burst " + burst + ", keys " + keys);
        }
        this.log = log;
        this.nanoClock = nanoClock;
        this.intervalNanos = interval.toNanos();
        this.burst = burst;
        this.windowStart = new long[keys];
        this.inWindow = new int[keys];
        this.suppressed = new long[keys];
        Arrays.fill(windowStart, nanoClock.getAsLong() - intervalNanos);
    }

    /**
     * One line per {@code interval} on the system clock, one key.
     *
     * @param log      where lines go
     * @param interval the window
     * @return the log
     */
    public static RateLimitedLog onePer(Logger log, Duration interval) {
        return new RateLimitedLog(log, System::nanoTime, interval, 1, 1);
    }

    /**
     * Whether a line of {@code key} may be written now; if not, it is counted as held back.
     *
     * @param key the kind of problem
     * @return whether to log
     */
    public synchronized boolean allow(int key) {
        long now = nanoClock.getAsLong();
        if (now - windowStart[key] >= intervalNanos) {
            windowStart[key] = now;
            inWindow[key] = 0;
        }
        if (inWindow[key] >= burst) {
            suppressed[key]++;
            return false;
        }
        inWindow[key]++;
        return true;
    }

    /** {@link #allow(int)} for key 0. @return whether to log */
    public boolean allow() {
        return allow(0);
    }

    /**
     * @param key the kind of problem
     * @return the lines of {@code key} held back since the last call, and resets the count
     */
    public synchronized long takeSuppressed(int key) {
        long n = suppressed[key];
        suppressed[key] = 0;
        return n;
    }

    /** {@link #takeSuppressed(int)} for key 0. @return the lines held back */
    public long takeSuppressed() {
        return takeSuppressed(0);
    }

    /**
     * Writes a WARN line unless {@code key} has had its burst in this window; when lines were held
     * back, the line ends with how many.
     *
     * @param key    the kind of problem
     * @param format SLF4J format
     * @param args   its arguments; a trailing Throwable is logged with its stack trace
     */
    public void warn(int key, String format, Object... args) {
        if (!allow(key) || !log.isWarnEnabled()) {
            return;
        }
        long held = takeSuppressed(key);
        if (held == 0) {
            log.warn(format, args);
            return;
        }
        boolean trailingThrowable = args.length > 0 && args[args.length - 1] instanceof Throwable;
        int n = trailingThrowable ? args.length - 1 : args.length;
        Object[] withCount = Arrays.copyOf(args, args.length + 1);
        withCount[n] = held;
        if (trailingThrowable) {
            withCount[n + 1] = args[n];
        }
        log.warn(format + " ({} more held back since the last report)", withCount);
    }
}
