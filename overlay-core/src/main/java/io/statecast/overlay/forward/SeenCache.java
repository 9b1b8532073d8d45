package io.statecast.overlay.forward;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The flood names a node has seen, bounded: the oldest entry goes when the cache is full. A
 * duplicate that arrives after its entry was evicted is forwarded once more; the hop limit still
 * bounds it. Sized so that eviction takes far longer than a flood needs to cross the overlay.
 * Synchronized: floods are rare next to multicast, so one lock costs nothing measurable.
 */
final class SeenCache {

    private final LinkedHashMap<FloodId.Key, Boolean> seen;

    SeenCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.seen = new LinkedHashMap<>(Math.min(capacity, 1 << 16) * 4 / 3 + 1, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<FloodId.Key, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Records {@code key}; returns false if it was already there. */
    synchronized boolean add(FloodId.Key key) {
        return seen.put(key, Boolean.TRUE) == null;
    }

    synchronized int size() {
        return seen.size();
    }
}
