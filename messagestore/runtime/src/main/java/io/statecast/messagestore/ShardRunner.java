package io.statecast.messagestore;

import java.util.concurrent.TimeUnit;

/**
 * What drives a {@link Shard}'s work: calls {@link Shard#doWork()} while the shard has work, and
 * idles in between. Every call into the shard's state comes from the runner's current thread, one
 * at a time; other threads only queue work and {@link #wake} the runner.
 *
 * <p>Two runners: {@link ThreadRunner}, a dedicated thread that parks when idle (dedicated
 * threading), and {@link TaskRunner}, the shard's work as tasks of an executor — the overlay's
 * timer service, which in simulations is the virtual clock (clock threading), or the node's receive
 * thread (io threading).
 */
interface ShardRunner {

    /** Starts running the shard (before any work is queued: the store publishes its shards after). */
    void start();

    /** Work was queued (any thread): makes sure a {@link Shard#doWork()} follows. */
    void wake();

    /** Stops after one more round of work (the store closes); does not wait. */
    void stop();

    /**
     * Waits for the runner's own thread to end, if it has one.
     *
     * @return whether it ended (true at once for a runner without its own thread)
     */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException;

    /** Whether the runner is between two rounds of work with nothing queued. */
    boolean idle();
}
