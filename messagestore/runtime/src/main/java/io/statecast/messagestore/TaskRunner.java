package io.statecast.messagestore;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a {@link Shard} as tasks of an executor: one {@link Shard#doWork()} per task, re-posted
 * while work waits, so that whatever else shares the executor gets its turn. With clock threading
 * the executor is the overlay's timer service — the virtual clock in simulations, where the shard's
 * work then happens at a virtual instant on the thread that advances the clock, deterministically.
 * With io threading it is the node's receive thread, which also wakes the shard for its wheel's
 * next timer ({@link #armWake}), so that an idle shard fires its timers on time.
 */
final class TaskRunner implements ShardRunner {

    private final Shard shard;
    private final Executor executor;
    /** Io threading: the receive thread, also waking the shard for its wheel's timers; else null. */
    private final ScheduledExecutorService loop;
    /** Whether a task is posted or running; a wake-up finding it true has nothing to do. */
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Runnable workTask = this::work;
    private final Runnable wakeTask = this::onWake;
    /** Io threading: the wake-up armed on {@link #loop} for the wheel's next timer, and when it is due (loop only). */
    private ScheduledFuture<?> wake;
    private long wakeAt = Long.MAX_VALUE;

    /**
     * @param executor what runs the shard's work
     * @param loop     the receive thread (io threading, {@code executor} itself), or {@code null}
     */
    TaskRunner(Shard shard, Executor executor, ScheduledExecutorService loop) {
        this.shard = shard;
        this.executor = executor;
        this.loop = loop;
    }

    @Override
    public void start() {
        // nothing to run until work is queued: each producer's wake() posts the first task
    }

    @Override
    public void wake() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                executor.execute(workTask);
            } catch (RuntimeException e) {
                // executor shut down (store closing): nothing will run any more
                scheduled.set(false);
            }
        }
    }

    private void work() {
        try {
            shard.doWork();
        } finally {
            scheduled.set(false);
            if (shard.hasWork()) {
                wake();
            } else if (loop != null) {
                armWake();
            }
        }
    }

    /**
     * Io threading: makes sure a wake-up is armed on the loop for the wheel's next deadline. One
     * wake-up at a time; a new one only when the wheel's next deadline is earlier than the armed
     * one's. Loop thread only.
     */
    private void armWake() {
        long next = shard.nextTimerNanos();
        if (next == Long.MAX_VALUE || next >= wakeAt) {
            return;
        }
        long now = shard.clock().nanoTime();
        if (wake != null) {
            wake.cancel(false);
        }
        wakeAt = next;
        try {
            // next is Long.MIN_VALUE while due timers wait (an expiry threw): at once, not after an overflow
            wake = loop.schedule(wakeTask, next <= now ? 0 : next - now, TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            // the loop has shut down (the socket is closing): nothing runs here any more
            wake = null;
            wakeAt = Long.MAX_VALUE;
        }
    }

    /** Io threading: the armed wake-up is due; the work it starts advances the wheel. */
    private void onWake() {
        wake = null;
        wakeAt = Long.MAX_VALUE;
        wake();
    }

    @Override
    public void stop() {
        // nothing of its own to stop: the executor belongs to the overlay
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }

    @Override
    public boolean idle() {
        return !scheduled.get() && !shard.queued();
    }
}
