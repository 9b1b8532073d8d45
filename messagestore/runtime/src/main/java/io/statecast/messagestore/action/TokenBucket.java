package io.statecast.messagestore.action;

/**
 * The per-instance bound on primitive calls: a token bucket holding at most {@code burst} tokens,
 * refilled at {@code ratePerSecond}; each primitive takes one. A spec that loops sending is
 * throttled to the rate instead of flooding the overlay. Time comes from the caller (the node's
 * clock, virtual in simulations). Not thread-safe: one per instance, on the instance's thread.
 */
public final class TokenBucket {

    private final long costNanos;
    private final long capacityNanos;
    private long creditNanos;
    private long last;

    /**
     * @param burst         most calls in a burst (and the initial credit), at least 1
     * @param ratePerSecond sustained calls per second, more than 0
     * @param nowNanos      the clock now
     */
    public TokenBucket(int burst, double ratePerSecond, long nowNanos) {
        if (burst < 1 || !(ratePerSecond > 0)) {
            throw new IllegalArgumentException("burst must be >= 1 and rate > 0, got " + burst + ", " + ratePerSecond);
        }
        // whole nanoseconds of credit: exact, where fractions of tokens would round
        this.costNanos = Math.max(1, (long) Math.ceil(1e9 / ratePerSecond));
        this.capacityNanos = Math.multiplyHigh(burst, costNanos) != 0 ? Long.MAX_VALUE : burst * costNanos;
        this.creditNanos = capacityNanos;
        this.last = nowNanos;
    }

    /** Takes a token if one is available at {@code nowNanos}. */
    public boolean tryTake(long nowNanos) {
        long elapsed = nowNanos - last;
        if (elapsed > 0) {
            creditNanos = creditNanos > capacityNanos - elapsed ? capacityNanos : creditNanos + elapsed;
            last = nowNanos;
        }
        if (creditNanos >= costNanos) {
            creditNanos -= costNanos;
            return true;
        }
        return false;
    }
}
