package io.statecast.overlay.substrate;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TimerService} on one daemon thread and the system's monotonic clock: the blueprint's
 * <em>timer thread</em> for a node running on real time.
 *
 * <p>Tasks run one at a time on that thread, in due-time order (equal due times in submission
 * order). A task that throws is logged and counted ({@link #taskFailures()}); the thread goes on.
 * Cancelled tasks are removed from the queue at once, so frequently rescheduled timeouts do not
 * accumulate. After {@link #close()} new tasks are discarded (counted in {@link #rejectedTasks()}),
 * which lets I/O threads racing with shutdown post work without failing.
 */
public final class RealTimerService implements TimerService, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RealTimerService.class);
    /** How long {@link #close()} waits for a running task to finish. */
    private static final long CLOSE_WAIT_SECONDS = 5;

    private final ScheduledThreadPoolExecutor executor;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final LongAdder failures = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private volatile Thread thread;

    /** A timer service whose thread is named {@code statecast-timer}. */
    public RealTimerService() {
        this("statecast-timer");
    }

    /** @param threadName name of the timer thread (shown in thread dumps and log lines) */
    public RealTimerService(String threadName) {
        Objects.requireNonNull(threadName, "threadName");
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            thread = t;
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Timer schedule(long delay, TimeUnit unit, Runnable task) {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(task, "task");
        try {
            ScheduledFuture<?> f = executor.schedule(guard(task), Math.max(0, delay), unit);
            return () -> f.cancel(false);
        } catch (RejectedExecutionException e) {
            rejected.increment();
            LOG.debug("timer service closed; task discarded: {}", task);
            return () -> false;
        }
    }

    @Override
    public void execute(Runnable task) {
        schedule(0, TimeUnit.NANOSECONDS, task);
    }

    /** Whether the calling thread is this service's timer thread. */
    public boolean inTimerThread() {
        return Thread.currentThread() == thread;
    }

    /**
     * Whether the calling thread may wait for other threads of a node whose timers are
     * {@code timers}: only on the system clock (with a virtual clock the waiting thread may be the
     * one that has to advance it), and never on its timer thread (that runs the timers, heartbeats
     * and, with clock threading, the MessageStore's drains that everything else waits for).
     */
    public static boolean mayWait(TimerService timers) {
        return timers instanceof RealTimerService r && !r.inTimerThread();
    }

    /** Tasks that threw. */
    public long taskFailures() {
        return failures.sum();
    }

    /** Tasks submitted after {@link #close()} and discarded. */
    public long rejectedTasks() {
        return rejected.sum();
    }

    /** Tasks waiting to run (due or not). */
    public int pendingTasks() {
        return executor.getQueue().size();
    }

    private Runnable guard(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | LinkageError | AssertionError e) {
                failures.increment();
                LOG.error("timer task {} failed; the timer thread continues", task, e);
            }
        };
    }

    /**
     * Discards pending tasks and stops the thread, waiting up to 5 s for a running task unless
     * called from the timer thread itself. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        executor.shutdownNow();
        if (!inTimerThread()) {
            try {
                if (!executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                    LOG.warn("timer thread still busy {} s after close", CLOSE_WAIT_SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
