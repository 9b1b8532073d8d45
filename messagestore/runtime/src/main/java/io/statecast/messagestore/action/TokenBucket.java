package io.statecast.messagestore.action;

/**
 * The per-instance bound on primitive calls: a token bucket holding at most {@code burst} tokens,
 * refilled at {@code ratePerSecond}; each primitive takes one. A spec that loops sending is
 * held to the rate instead of flooding the overlay. Time comes from the caller (the node's
 * clock, virtual in simulations). Not thread-safe: one per instance, on the instance's thread.
 *
 * <p>The instance asks {@link #hasToken} before an engine step and, once the step runs,
 * {@link #take}s one token per call even below zero: a step is never cut in half, and the debt
 * it leaves (at most the calls of that one step) is repaid at the rate before the next
 * {@link #hasToken} is true.
 */
public final class TokenBucket {

    /** The deepest debt kept, far below anything a step makes: no overflow, whatever a spec does. */
    private static final long FLOOR_NANOS = Long.MIN_VALUE / 4;

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

    private void refill(long nowNanos) {
        long elapsed = nowNanos - last;
        if (elapsed > 0) {
            creditNanos = creditNanos > capacityNanos - elapsed ? capacityNanos : creditNanos + elapsed;
            last = nowNanos;
        }
    }

    /** Takes a token if one is available at {@code nowNanos}. */
    public boolean tryTake(long nowNanos) {
        if (hasToken(nowNanos)) {
            creditNanos -= costNanos;
            return true;
        }
        return false;
    }

    /** Whether a whole token is available at {@code nowNanos} (no debt left). */
    public boolean hasToken(long nowNanos) {
        refill(nowNanos);
        return creditNanos >= costNanos;
    }

    /** Takes a token at {@code nowNanos}, going into debt when none is left. */
    public void take(long nowNanos) {
        refill(nowNanos);
        creditNanos = creditNanos < FLOOR_NANOS + costNanos ? FLOOR_NANOS : creditNanos - costNanos;
    }

    /** How long from {@code nowNanos} until {@link #hasToken} is true: 0 if it is now. */
    public long nanosUntilToken(long nowNanos) {
        refill(nowNanos);
        return creditNanos >= costNanos ? 0 : costNanos - creditNanos;
    }
}
