package io.statecast.messagestore.deploy;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decides whether a Service Request may make this node publish, so that a flood of requests
 * cannot make it write to the spec server over and over: a ServiceID is admitted at most once per
 * {@code perService} (however many requests name it), and all ServiceIDs together at most
 * {@code maxPerMinute} times a minute (a token bucket of that size, refilled evenly). Remembers at
 * most {@code maxTracked} ServiceIDs; beyond that the oldest admission is forgotten (the bucket
 * still bounds the rate). Times are {@code System.nanoTime}-style readings of the caller's clock.
 * Thread-safe.
 */
final class PublishGate {

    /** What {@link #admit} decided. */
    enum Decision {
        /** Publish now. */
        ADMIT,
        /** This ServiceID was admitted less than {@code perService} ago. */
        RECENT,
        /** The rate limit over all ServiceIDs is reached. */
        RATE_LIMITED
    }

    private static final long MINUTE_NANOS = Duration.ofMinutes(1).toNanos();

    private final long perServiceNanos;
    private final int maxPerMinute;
    private final int maxTracked;
    private final Map<Integer, Long> admitted = new LinkedHashMap<>();
    private double tokens;
    private long refilledAt;
    private boolean started;

    PublishGate(Duration perService, int maxPerMinute, int maxTracked) {
        if (perService.isNegative() || perService.isZero() || maxPerMinute < 1 || maxTracked < 1) {
            throw new IllegalArgumentException("need perService > 0, maxPerMinute >= 1, maxTracked >= 1");
        }
        this.perServiceNanos = perService.toNanos();
        this.maxPerMinute = maxPerMinute;
        this.maxTracked = maxTracked;
        this.tokens = maxPerMinute;
    }

    synchronized Decision admit(int serviceId, long now) {
        Long last = admitted.get(serviceId);
        if (last != null && now - last < perServiceNanos) {
            return Decision.RECENT;
        }
        refill(now);
        if (tokens < 1) {
            return Decision.RATE_LIMITED;
        }
        tokens -= 1;
        admitted.remove(serviceId); // re-inserted last: the map stays in admission order
        admitted.put(serviceId, now);
        trim(now);
        return Decision.ADMIT;
    }

    /** The publish admitted for {@code serviceId} failed: the next request may try again (the bucket still applies). */
    synchronized void failed(int serviceId) {
        admitted.remove(serviceId);
    }

    private void refill(long now) {
        if (!started) {
            started = true;
            refilledAt = now;
            return;
        }
        long elapsed = now - refilledAt;
        if (elapsed > 0) {
            tokens = Math.min(maxPerMinute, tokens + (double) elapsed * maxPerMinute / MINUTE_NANOS);
            refilledAt = now;
        }
    }

    private void trim(long now) {
        Iterator<Long> it = admitted.values().iterator();
        while (it.hasNext()) {
            long t = it.next();
            if (now - t >= perServiceNanos || admitted.size() > maxTracked) {
                it.remove();
            } else {
                break;
            }
        }
    }
}
