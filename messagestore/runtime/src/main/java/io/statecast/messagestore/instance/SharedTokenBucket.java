package io.statecast.messagestore.instance;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket several threads take from (a service's instances live on every shard), without
 * a lock: the generic cell-rate algorithm, one atomic "theoretical arrival time". A take is
 * allowed while that time is at most a burst's worth ahead of now, and pushes it one interval
 * further. Time comes from the caller (the node's clock, virtual in simulations).
 */
final class SharedTokenBucket {

    private final long intervalNanos;
    private final long toleranceNanos;
    private final AtomicLong arrival;

    /**
     * @param budget   rate and burst
     * @param nowNanos the clock now: the bucket starts full
     */
    SharedTokenBucket(SendBudget budget, long nowNanos) {
        this.intervalNanos = Math.max(1, (long) Math.ceil(1e9 / budget.perSecond()));
        long tolerance = Math.multiplyHigh(budget.burst() - 1L, intervalNanos) != 0 ? Long.MAX_VALUE / 4
                : (budget.burst() - 1L) * intervalNanos;
        this.toleranceNanos = Math.min(tolerance, Long.MAX_VALUE / 4);
        this.arrival = new AtomicLong(nowNanos);
    }

    /** Takes a token if one is available at {@code nowNanos}. */
    boolean tryTake(long nowNanos) {
        while (true) {
            long tat = arrival.get();
            long base = tat - nowNanos > 0 ? tat : nowNanos;
            if (base - nowNanos > toleranceNanos) {
                return false;
            }
            if (arrival.compareAndSet(tat, base + intervalNanos)) {
                return true;
            }
        }
    }
}
