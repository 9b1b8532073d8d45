package io.statecast.messagestore.event;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one task at a time on a dedicated daemon thread with a fixed stack size and a deadline.
 *
 * <p>Why: Saxon has no timeout and ignores interrupts, and a deep expression can exhaust an
 * ordinary thread's stack. A task that overruns its deadline is left running on its thread, which
 * is <em>abandoned</em>: the worker starts a fresh thread for the next task and counts the
 * abandoned one ({@link #abandonedThreads()}). The caller should then stop using whatever
 * expression overran (the runtime quarantines the spec). Load-time limits make overruns unlikely:
 * no recursion, no function items, capped literal ranges, bounded text and nesting.
 *
 * <p>Calls are serialized. The spec loader's query engine compiles on one; the MessageStore's warm
 * start runs on another. (Run-time evaluations do not use one: see {@link EvaluationGuard}.)
 */
public final class BoundedWorker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BoundedWorker.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** How often a CPU-bounded call looks at the worker's CPU clock; bounds the overrun, not the cost. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final String name;
    private final long stackBytes;
    private final AtomicInteger threadCount = new AtomicInteger();
    private final AtomicLong abandoned = new AtomicLong();
    private final AtomicLong cpuNanos = new AtomicLong();
    private ExecutorService executor;
    private boolean closed;

    /**
     * @param name       prefix of the worker threads' names
     * @param stackBytes stack size of each worker thread (a hint the JVM honours on common platforms)
     */
    public BoundedWorker(String name, long stackBytes) {
        if (stackBytes <= 0) {
            throw new IllegalArgumentException("stackBytes must be positive, got " + stackBytes);
        }
        this.name = name;
        this.stackBytes = stackBytes;
    }

    /**
     * Runs {@code task} on the worker thread and waits at most {@code timeout} for it.
     *
     * @param what    names the task in the timeout message
     * @return the task's result
     * @throws QueryTimeoutException when the deadline passes; the worker thread is abandoned
     * @throws ExecutionException    when the task threw (the cause may be an {@link Error} such
     *                               as {@link StackOverflowError})
     * @throws InterruptedException  when the calling thread is interrupted while waiting; the
     *                               worker thread is abandoned as well
     */
    public synchronized <T> T call(Callable<T> task, Duration timeout, String what)
            throws QueryTimeoutException, ExecutionException, InterruptedException {
        if (closed) {
            throw new IllegalStateException("worker " + name + " is closed");
        }
        if (executor == null) {
            executor = newExecutor();
        }
        Future<T> future = executor.submit(task);
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            abandon(future);
            throw new QueryTimeoutException(what, timeout);
        } catch (InterruptedException e) {
            abandon(future);
            throw e;
        }
    }

    /**
     * Runs {@code task} on the worker thread and bounds the CPU time the worker spends on it, with
     * a wall-clock backstop.
     *
     * <p>Why CPU time: on a loaded machine (two cores shared by several JVMs, a cold JIT) a
     * legitimate compilation can wait for the CPU far longer than it runs; a wall-clock deadline
     * then refuses good specs at random. The worker's CPU clock only advances while the task
     * runs, so {@code cpuBudget} measures the work itself. The backstop still ends a task that
     * never gets the CPU or blocks. Where the JVM cannot measure thread CPU time, {@code cpuBudget}
     * is used as a wall-clock deadline (the behaviour of {@link #call(Callable, Duration, String)}).
     *
     * @param cpuBudget    CPU time the task may use
     * @param wallBackstop wall-clock time after which the task is abandoned regardless
     * @param what         names the task in the timeout message
     * @throws QueryTimeoutException when either bound passes; the worker thread is abandoned
     * @throws ExecutionException    when the task threw
     * @throws InterruptedException  when the calling thread is interrupted while waiting
     */
    public synchronized <T> T callCpuBounded(Callable<T> task, Duration cpuBudget, Duration wallBackstop, String what)
            throws QueryTimeoutException, ExecutionException, InterruptedException {
        if (!cpuClockAvailable()) {
            return call(task, cpuBudget, what);
        }
        if (closed) {
            throw new IllegalStateException("worker " + name + " is closed");
        }
        if (executor == null) {
            executor = newExecutor();
        }
        AtomicLong workerThreadId = new AtomicLong(-1);
        AtomicLong cpuAtStart = new AtomicLong();
        Future<T> future = executor.submit(() -> {
            long c0 = THREADS.getCurrentThreadCpuTime();
            cpuAtStart.set(c0);
            workerThreadId.set(Thread.currentThread().getId());
            try {
                return task.call();
            } finally {
                cpuNanos.addAndGet(THREADS.getCurrentThreadCpuTime() - c0);
            }
        });
        long wallEnd = System.nanoTime() + wallBackstop.toNanos();
        long budget = cpuBudget.toNanos();
        try {
            while (true) {
                try {
                    return future.get(POLL_NANOS, TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    long id = workerThreadId.get();
                    long now = id < 0 ? -1 : THREADS.getThreadCpuTime(id);
                    if (now >= 0 && now - cpuAtStart.get() > budget) {
                        abandon(future);
                        throw QueryTimeoutException.cpu(what, cpuBudget);
                    }
                    if (System.nanoTime() - wallEnd > 0) {
                        abandon(future);
                        throw new QueryTimeoutException(what, wallBackstop);
                    }
                }
            }
        } catch (InterruptedException e) {
            abandon(future);
            throw e;
        }
    }

    /**
     * CPU time the worker threads spent on tasks run by {@link #callCpuBounded} that ended (returned
     * or threw), in nanoseconds, summed over the worker's life. A loader charges it to its own
     * CPU budget.
     */
    public long cpuNanosUsed() {
        return cpuNanos.get();
    }

    /** Whether this JVM measures the CPU time of other threads (HotSpot on Linux, macOS, Windows does). */
    public static boolean cpuClockAvailable() {
        return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    }

    /** How many worker threads were left running a task that overran its deadline. */
    public long abandonedThreads() {
        return abandoned.get();
    }

    private void abandon(Future<?> future) {
        future.cancel(true);
        executor.shutdownNow();
        executor = null;
        long n = abandoned.incrementAndGet();
        LOG.warn("worker {}: abandoned a thread whose task overran its deadline ({} so far)", name, n);
    }

    private ExecutorService newExecutor() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(null, r, name + "-" + threadCount.incrementAndGet(), stackBytes);
            t.setDaemon(true);
            return t;
        });
    }

    /** Stops the worker thread once its current task (if any) ends. */
    @Override
    public synchronized void close() {
        closed = true;
        if (executor != null) {
            executor.shutdown();
            executor = null;
        }
    }
}
