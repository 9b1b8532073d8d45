package io.statecast.overlay.forward;

import java.util.concurrent.atomic.AtomicLong;

/**
 * MessageIDs (and flood sequence numbers) unique per node: a random 64-bit start, then a counter.
 * Two nodes collide only if their starts lie within the number of IDs they use of each other —
 * with 2^64 possible starts, negligible — and a restarted node starts elsewhere. Thread-safe.
 */
public final class MessageIds {

    private final AtomicLong next;

    /** @param randomStart the first ID; draw it from a random source */
    public MessageIds(long randomStart) {
        this.next = new AtomicLong(randomStart);
    }

    /** The next ID. */
    public long next() {
        return next.getAndIncrement();
    }
}
