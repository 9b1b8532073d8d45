package io.statecast.messagestore.event;

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

    private final String name;
    private final long stackBytes;
    private final AtomicInteger threadCount = new AtomicInteger();
    private final AtomicLong abandoned = new AtomicLong();
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
