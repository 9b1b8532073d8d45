package io.statecast.examples.ttcp;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.function.LongSupplier;

/**
 * The process's CPU time per message over a run: the whole JVM (every thread, the JIT's and the
 * collector's, kernel time included), read as the stream starts, every {@value #EVERY}
 * messages after it and at the last, so that runs on shared cores can be compared by what they
 * cost rather than only by whether they kept up. Reading the clock is a system call, hence not per
 * message; on Linux it advances in 10 ms steps, so a figure needs a few thousand messages. Confined
 * to one thread.
 */
public final class CpuMeter {

    /** Messages between two readings. */
    public static final int EVERY = 1000;

    /** Process CPU nanoseconds, negative when unknown. */
    private final LongSupplier cpuNanos;
    private long firstCount = -1;
    private long firstNanos;
    private long lastCount;
    private long lastNanos;

    /** This process's CPU time in nanoseconds ({@code com.sun.management}'s; always negative where it is missing). */
    static LongSupplier processCpuNanos() {
        OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
        return bean instanceof com.sun.management.OperatingSystemMXBean os ? os::getProcessCpuTime : () -> -1;
    }

    /** A meter of this process's CPU time. */
    public static CpuMeter process() {
        return new CpuMeter(processCpuNanos());
    }

    CpuMeter(LongSupplier cpuNanos) {
        this.cpuNanos = cpuNanos;
    }

    /** Reads the clock as the stream starts, {@code count} messages in (0 before the first). */
    public void start(long count) {
        read(count);
    }

    /**
     * Called as message {@code count} (1 for the first) passes; reads the clock on every
     * {@value #EVERY}th (and on the first such if {@link #start} was not called). Nothing here
     * tests for a stream's first message: on a path the warm-up compiled, that test would be a
     * trap the measured run's first message springs.
     */
    public void passed(long count) {
        if (count % EVERY == 0) {
            read(count);
        }
    }

    /** Called once the last message, number {@code count}, has passed. */
    public void last(long count) {
        if (count != lastCount || firstCount < 0) {
            read(count);
        }
    }

    private void read(long count) {
        long now = cpuNanos.getAsLong();
        if (now < 0) {
            return;
        }
        if (firstCount < 0) {
            firstCount = count;
            firstNanos = now;
        }
        lastCount = count;
        lastNanos = now;
    }

    /** CPU microseconds per message between the first and the last reading, or NaN with fewer than two. */
    public double microsPerMessage() {
        long messages = lastCount - firstCount;
        return firstCount < 0 || messages <= 0 ? Double.NaN : (lastNanos - firstNanos) / 1e3 / messages;
    }
}
