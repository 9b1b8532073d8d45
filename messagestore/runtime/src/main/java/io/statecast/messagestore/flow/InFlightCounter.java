package io.statecast.messagestore.flow;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One service's count of its node's own messages in flight ({@link SendWindow#inFlight}), with
 * the two monotonic counts its AIMD window feeds on. Written by the store on accept and by the
 * shards' instances (the store's reports into its {@link SendWindow}); read by senders.
 * Thread-safe.
 */
public final class InFlightCounter {

    private final AtomicInteger count = new AtomicInteger();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong completions = new AtomicLong();

    /** Own messages in flight now. */
    public int count() {
        return count.get();
    }

    /** One more in flight (accepted from the application, or an instance entered the states again). */
    public void add() {
        count.incrementAndGet();
    }

    /** {@code n} more in flight (an instance's {@code <InFlightCount>} variable grew by {@code n}). */
    public void add(int n) {
        count.addAndGet(n);
    }

    /** {@code n} fewer, each a completion (an instance's {@code <InFlightCount>} variable fell by {@code n}). */
    public void complete(int n) {
        count.addAndGet(-n);
        completions.addAndGet(n);
    }

    /** One fewer, without a completion: a message the store accepted but no instance took. */
    public void giveBack() {
        count.decrementAndGet();
    }

    /** One fewer: an instance left the in-flight states (acknowledged, given up or ended). */
    public void complete() {
        count.decrementAndGet();
        completions.incrementAndGet();
    }

    /** An own message in flight reached its service's timers a second time (once per message). */
    public void timedOut() {
        timeouts.incrementAndGet();
    }

    /** Congestion signals (repeated timeouts) so far. */
    public long timeouts() {
        return timeouts.get();
    }

    /** Messages that left the in-flight states so far. */
    public long completions() {
        return completions.get();
    }
}
