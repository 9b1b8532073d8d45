package io.statecast.messagestore;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link Shard} on a thread of its own (dedicated threading). The thread loops over
 * {@link Shard#doWork()} while there is work, then parks until woken or for the shard's
 * {@link Shard#idleNanos() idle time} (its wheel's next timer). Its stack is the query workers'
 * large one: queries run on it and recurse.
 *
 * <p>{@link #scheduled} is true while the thread is awake; a producer that finds it false sets it
 * and unparks the thread, which re-checks the queues after clearing it, so no wake-up is lost.
 * When the watchdog gives a thread up ({@link #replaceThread}), a new one takes over at once; the
 * old one leaves the loop once its query returns ({@link ShardAbandoned}).
 */
final class ThreadRunner implements ShardRunner {

    private final Shard shard;
    private final String threadName;
    private final long stackBytes;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** The shard's current thread (a new one after the watchdog took over). */
    private volatile Thread thread;
    /** The thread allowed to run the shard; a replaced thread sees another one here and leaves. */
    private volatile Thread owner;
    private volatile boolean stopping;

    ThreadRunner(Shard shard, String threadName, long stackBytes) {
        this.shard = shard;
        this.threadName = threadName;
        this.stackBytes = stackBytes;
    }

    @Override
    public void start() {
        Thread t = new Thread(null, this::run, threadName, stackBytes);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /**
     * The watchdog took the shard from its stuck thread: a fresh thread runs it from now on and
     * drains at once (queued work, and due timers the old thread had not fired).
     */
    void replaceThread() {
        owner = null; // the stuck thread ends once Saxon returns (ShardAbandoned)
        start();
    }

    @Override
    public void wake() {
        if (scheduled.compareAndSet(false, true)) {
            LockSupport.unpark(thread);
        }
    }

    private void run() {
        Thread me = Thread.currentThread();
        owner = me;
        scheduled.set(true);
        try {
            while (owner == me) {
                shard.doWork();
                if (stopping) {
                    return;
                }
                if (shard.hasWork()) {
                    continue;
                }
                scheduled.set(false);
                if (shard.hasWork()) {
                    scheduled.set(true);
                    continue;
                }
                long park = shard.idleNanos();
                if (park == Long.MAX_VALUE) {
                    LockSupport.park(this); // until woken
                } else if (park > 0) {
                    LockSupport.parkNanos(this, park);
                }
                scheduled.set(true);
            }
        } catch (ShardAbandoned e) {
            // the watchdog gave this thread up (and logged it); the shard goes on on another one
        }
    }

    @Override
    public void stop() {
        stopping = true;
        LockSupport.unpark(thread);
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        Thread t = thread;
        t.join(Math.max(1, unit.toMillis(timeout)));
        return !t.isAlive();
    }

    @Override
    public boolean idle() {
        return !scheduled.get() && !shard.queued();
    }
}
