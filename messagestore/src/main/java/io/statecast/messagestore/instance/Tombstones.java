package io.statecast.messagestore.instance;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keys of message-scope instances that ended, remembered for a while so that a late duplicate
 * or acknowledgement of the same message does not start the instance again (which would, for
 * the hop-to-hop service, deliver the payload to the application a second time).
 *
 * <p>Bounded twice: by time ({@code ttlNanos}, after which a key is forgotten — the message is
 * assumed gone from the overlay) and by count ({@code capacity}; the oldest key is forgotten
 * first and the eviction counted, because an early eviction re-opens the window for a duplicate).
 * All keys share one lifetime, so insertion order is expiry order and both bounds cost O(1).
 *
 * <p>Confined to one shard's thread.
 */
public final class Tombstones {

    private final int capacity;
    private final long ttlNanos;
    private final LinkedHashMap<InstanceKey, Long> expiries = new LinkedHashMap<>();
    private long evicted;

    /**
     * @param capacity most keys remembered (0: none)
     * @param ttlNanos how long a key is remembered
     */
    public Tombstones(int capacity, long ttlNanos) {
        if (capacity < 0 || ttlNanos <= 0) {
            throw new IllegalArgumentException("capacity must be >= 0 and ttl > 0, got " + capacity + ", " + ttlNanos);
        }
        this.capacity = capacity;
        this.ttlNanos = ttlNanos;
    }

    /** Remembers that the instance {@code key} ended at {@code nowNanos}. */
    public void add(InstanceKey key, long nowNanos) {
        if (capacity == 0) {
            return;
        }
        expiries.remove(key);
        if (expiries.size() >= capacity) {
            Iterator<?> it = expiries.keySet().iterator();
            it.next();
            it.remove();
            evicted++;
        }
        expiries.put(key, nowNanos + ttlNanos);
    }

    /** Whether {@code key} ended less than the lifetime ago. */
    public boolean contains(InstanceKey key, long nowNanos) {
        Long until = expiries.get(key);
        if (until == null) {
            return false;
        }
        if (nowNanos - until >= 0) {
            expiries.remove(key);
            return false;
        }
        return true;
    }

    /** Forgets every key whose lifetime is over. */
    public void purge(long nowNanos) {
        Iterator<Map.Entry<InstanceKey, Long>> it = expiries.entrySet().iterator();
        while (it.hasNext()) {
            if (nowNanos - it.next().getValue() < 0) {
                return;
            }
            it.remove();
        }
    }

    /** Keys remembered now. */
    public int size() {
        return expiries.size();
    }

    /** Keys forgotten early because the set was full. */
    public long evicted() {
        return evicted;
    }
}
