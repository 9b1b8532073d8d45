package io.statecast.overlay.node;

import io.statecast.overlay.substrate.TimerService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands protocol work from I/O threads to a node's timer thread, where all protocol state lives.
 * At most a fixed number of tasks wait, so a flood of protocol messages cannot grow the timer
 * queue without bound.
 */
public final class ProtocolInbox {

    private final TimerService timers;
    private final int maxPending;
    private final AtomicInteger pending = new AtomicInteger();

    /**
     * @param timers     the node's timer service
     * @param maxPending tasks that may wait at once
     */
    public ProtocolInbox(TimerService timers, int maxPending) {
        this.timers = timers;
        this.maxPending = maxPending;
    }

    /**
     * Queues {@code task} on the timer thread.
     *
     * @return false, without queueing, when {@code maxPending} tasks are already waiting
     */
    public boolean post(Runnable task) {
        if (pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            return false;
        }
        timers.execute(() -> {
            pending.decrementAndGet();
            task.run();
        });
        return true;
    }
}
