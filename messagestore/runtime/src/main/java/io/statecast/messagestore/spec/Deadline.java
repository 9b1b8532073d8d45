package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.BoundedWorker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When loading a spec gives up: after a CPU-time budget, with a wall-clock backstop.
 *
 * <p>Why CPU time: a wall-clock deadline refused good specs at random on a loaded machine (two
 * cores shared by several JVMs, a cold JIT), because the loading thread spent most of its
 * deadline waiting for the CPU. The budget counts the CPU time of the loading thread plus that of
 * the query engine's compile worker over the load ({@code compileCpu}); the backstop bounds a load
 * that never gets the CPU. Where the JVM cannot measure thread CPU time, the budget is a
 * wall-clock deadline, as before. Created and checked on the loading thread.
 */
final class Deadline {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Duration budget;
    private final Duration backstop;
    private final boolean cpu;
    private final LongSupplier compileCpu;
    private final long wallStart;
    private final long cpuStart;
    private final long compileCpuStart;
    private boolean backstopPassed;

    private Deadline(Duration budget, Duration backstop, LongSupplier compileCpu) {
        this.budget = budget;
        this.backstop = backstop;
        this.cpu = BoundedWorker.cpuClockAvailable() && THREADS.isCurrentThreadCpuTimeSupported();
        this.compileCpu = compileCpu;
        this.wallStart = System.nanoTime();
        this.cpuStart = cpu ? THREADS.getCurrentThreadCpuTime() : 0;
        this.compileCpuStart = compileCpu.getAsLong();
    }

    /**
     * @param budget     CPU time the load may use (loading thread plus compile worker)
     * @param backstop   wall-clock time after which the load gives up regardless
     * @param compileCpu cumulative CPU nanoseconds of the compile worker
     */
    static Deadline after(Duration budget, Duration backstop, LongSupplier compileCpu) {
        return new Deadline(budget, backstop, compileCpu);
    }

    boolean passed() {
        long wall = System.nanoTime() - wallStart;
        if (!cpu) {
            return wall > budget.toNanos();
        }
        if (wall > backstop.toNanos()) {
            backstopPassed = true;
            return true;
        }
        long used = THREADS.getCurrentThreadCpuTime() - cpuStart + compileCpu.getAsLong() - compileCpuStart;
        return used > budget.toNanos();
    }

    /** The message used when the deadline passes during {@code what}. */
    String message(String what) {
        if (!cpu) {
            return "loading took longer than " + budget.toMillis() + " ms (while " + what + ")";
        }
        if (backstopPassed) {
            return "loading took longer than " + backstop.toMillis() + " ms of wall-clock time (while " + what + ")";
        }
        return "loading took longer than " + budget.toMillis() + " ms of CPU time (while " + what + ")";
    }
}
