package io.statecast.messagestore.instance;

import java.util.Arrays;

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
 * <p>Only message-scope keys (ServiceID, MessageID) are held: flow-scope instances leave no
 * tombstone, so {@link #add} refuses a flow key and {@link #contains} never finds one.
 *
 * <p>Memory: five primitive arrays, grown on demand from a small start; a full set takes about
 * 50 bytes per key of capacity, and an add, lookup or purge allocates nothing.
 *
 * <p>Confined to one shard's thread.
 */
public final class Tombstones {

    // At saturation every ended instance adds a key and evicts one; a map of boxed entries made
    // that a steady stream of old-generation garbage. Here a key lives in primitive arrays: a FIFO
    // ring in insertion (= expiry) order, and an open-addressing index from key to ring slot.
    // A re-added or early-forgotten key leaves a dead slot behind in the ring, reclaimed when it
    // reaches the head or when a full ring is compacted.

    /** First ring length: stores with few ended instances (tests make many) stay small. */
    private static final int INITIAL_SLOTS = 1024;
    /**
     * Keeps the index (twice the ring, a power of two) within an int-indexed array; a larger
     * capacity (gigabytes of tombstones) is held to this many keys.
     */
    private static final int MAX_SLOTS = 1 << 28;

    private final int capacity;
    private final long ttlNanos;
    /**
     * Longest ring: a quarter above the capacity, so that a full ring at its longest holds at
     * least that many dead slots and a compaction pays for itself over the adds that follow.
     */
    private final int maxSlots;

    private int[] serviceIds = new int[0];
    private long[] messageIds = new long[0];
    private long[] expiries = new long[0];
    private boolean[] live = new boolean[0];
    /**
     * Per bucket the key's hash (high half) and its ring slot + 1 (low half), 0 = empty; linear
     * probing, length a power of two. With the hash here, a lookup that misses and the shift
     * after a removal read this array alone: at saturation the key arrays are cache misses, a
     * few per message.
     */
    private long[] index = new long[0];

    /** Oldest occupied ring slot. */
    private int head;
    /** Ring slots from {@link #head} in use, live or dead. */
    private int used;
    /** Live keys. */
    private int size;
    private long evicted;

    /**
     * @param capacity most keys remembered (0: none; at most 2<sup>28</sup> are held whatever
     *                 the value)
     * @param ttlNanos how long a key is remembered
     */
    public Tombstones(int capacity, long ttlNanos) {
        if (capacity < 0 || ttlNanos <= 0) {
            throw new IllegalArgumentException("capacity must be >= 0 and ttl > 0, got " + capacity + ", " + ttlNanos);
        }
        this.capacity = capacity;
        this.ttlNanos = ttlNanos;
        this.maxSlots = (int) Math.min((long) capacity + (capacity >> 2) + 1, MAX_SLOTS);
    }

    /**
     * Remembers that the instance {@code key} ended at {@code nowNanos}. A key already remembered
     * gets the new lifetime and becomes the newest, last to be evicted.
     *
     * @throws IllegalArgumentException if {@code key} is a flow-scope key
     */
    public void add(InstanceKey key, long nowNanos) {
        if (!key.scope().perMessage()) {
            throw new IllegalArgumentException("only message-scope keys leave a tombstone, got " + key);
        }
        if (capacity == 0) {
            return;
        }
        // forget as many expired keys as we add, and then some: the periodic purge finds few
        // left, instead of the shard thread forgetting ten seconds' worth at once
        purge(nowNanos, 2);
        int serviceId = key.serviceId();
        long messageId = key.tombstoneId();
        int h = hash(serviceId, messageId);
        int bucket = size == 0 ? -1 : find(h, serviceId, messageId);
        if (bucket >= 0) {
            forget(bucket);
        }
        if (size >= capacity) {
            evictOldest();
        }
        if (used == serviceIds.length) {
            makeRoom();
        }
        int slot = slotAfter(head, used);
        serviceIds[slot] = serviceId;
        messageIds[slot] = messageId;
        expiries[slot] = nowNanos + ttlNanos;
        live[slot] = true;
        used++;
        size++;
        insert(slot, h);
    }

    /**
     * Whether {@code key} ended less than the lifetime ago; a key whose lifetime is over is
     * forgotten here. Always false for a flow-scope key.
     */
    public boolean contains(InstanceKey key, long nowNanos) {
        if (!key.scope().perMessage() || size == 0) {
            return false;
        }
        int bucket = find(key.serviceId(), key.tombstoneId());
        if (bucket < 0) {
            return false;
        }
        if (nowNanos - expiries[slotOf(index[bucket])] >= 0) {
            forget(bucket);
            return false;
        }
        return true;
    }

    /** Forgets every key whose lifetime is over. */
    public void purge(long nowNanos) {
        purge(nowNanos, Integer.MAX_VALUE);
    }

    /** Forgets at most {@code most} of the keys whose lifetime is over, oldest first. */
    void purge(long nowNanos, int most) {
        int forgotten = 0;
        while (used > 0 && forgotten < most) {
            if (live[head]) {
                if (nowNanos - expiries[head] < 0) {
                    return;
                }
                forget(find(serviceIds[head], messageIds[head]));
                forgotten++;
            }
            dropHead();
        }
    }

    /** Keys remembered now. */
    public int size() {
        return size;
    }

    /** Keys forgotten early because the set was full. */
    public long evicted() {
        return evicted;
    }

    // ---- ring ----

    private int slotAfter(int slot, int steps) {
        int s = slot + steps;
        return s >= serviceIds.length ? s - serviceIds.length : s;
    }

    private void dropHead() {
        head = slotAfter(head, 1);
        used--;
    }

    private void evictOldest() {
        while (!live[head]) {
            dropHead();
        }
        forget(find(serviceIds[head], messageIds[head]));
        dropHead();
        evicted++;
    }

    /** Frees ring slots when the ring is full: grows it while mostly live, else squeezes out dead slots. */
    private void makeRoom() {
        int length = serviceIds.length;
        if (length < maxSlots && 2L * size >= length) {
            resize(length == 0 ? Math.min(INITIAL_SLOTS, maxSlots) : (int) Math.min(2L * length, maxSlots));
        } else if (size < length) {
            compact();
        } else {
            // Only a capacity beyond MAX_SLOTS gets here; the ring cannot grow, so the oldest goes.
            evictOldest();
        }
    }

    private void resize(int length) {
        int[] s = new int[length];
        long[] m = new long[length];
        long[] e = new long[length];
        boolean[] l = new boolean[length];
        int n = 0;
        for (int i = 0, slot = head; i < used; i++, slot = slotAfter(slot, 1)) {
            if (live[slot]) {
                s[n] = serviceIds[slot];
                m[n] = messageIds[slot];
                e[n] = expiries[slot];
                l[n] = true;
                n++;
            }
        }
        serviceIds = s;
        messageIds = m;
        expiries = e;
        live = l;
        head = 0;
        used = n;
        index = new long[Integer.highestOneBit(2 * length - 1) << 1];
        reindex();
    }

    /** Moves the live slots together behind the head, keeping their order. */
    private void compact() {
        int to = head;
        for (int i = 0, from = head; i < used; i++, from = slotAfter(from, 1)) {
            if (live[from]) {
                if (from != to) {
                    serviceIds[to] = serviceIds[from];
                    messageIds[to] = messageIds[from];
                    expiries[to] = expiries[from];
                    live[to] = true;
                }
                to = slotAfter(to, 1);
            }
        }
        used = size;
        Arrays.fill(index, 0L);
        reindex();
    }

    private void reindex() {
        for (int i = 0, slot = head; i < used; i++, slot = slotAfter(slot, 1)) {
            insert(slot, hash(serviceIds[slot], messageIds[slot]));
        }
    }

    // ---- index ----

    /**
     * Eight consecutive MessageIDs of a service (a source numbers its messages with a counter)
     * share one mixed value and differ only in the low three bits, so they sit in one aligned run
     * of eight buckets, one cache line of the index: the add, the lookups and the purge of
     * neighbouring messages, which come close together in time, then mostly find the line
     * cached. Own mixing, not {@link InstanceKey#spread()}: the store picks a key's shard from
     * {@code spread()} modulo the shard count, so within one shard its low bits hardly vary; the
     * high half of a 64-bit mix is independent of them.
     */
    private static int hash(int serviceId, long messageId) {
        long h = (messageId >>> 3) ^ (serviceId * 0xD6E8FEB86659FD93L);
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        return (int) (h >>> 32) & ~7 | (int) messageId & 7;
    }

    /** The bucket holding the key, or -1. */
    private int find(int serviceId, long messageId) {
        return find(hash(serviceId, messageId), serviceId, messageId);
    }

    /** The bucket holding the key whose hash is {@code h}, or -1. */
    private int find(int h, int serviceId, long messageId) {
        int mask = index.length - 1;
        for (int b = h & mask; ; b = (b + 1) & mask) {
            long entry = index[b];
            if (entry == 0) {
                return -1;
            }
            if (hashOf(entry) == h) {
                int slot = slotOf(entry);
                if (messageIds[slot] == messageId && serviceIds[slot] == serviceId) {
                    return b;
                }
            }
        }
    }

    private void insert(int slot, int h) {
        int mask = index.length - 1;
        int b = h & mask;
        while (index[b] != 0) {
            b = (b + 1) & mask;
        }
        index[b] = ((long) h << 32) | (slot + 1L);
    }

    private static int hashOf(long entry) {
        return (int) (entry >>> 32);
    }

    private static int slotOf(long entry) {
        return (int) entry - 1;
    }

    /** Removes the key in {@code bucket} from the index and marks its ring slot dead. */
    private void forget(int bucket) {
        live[slotOf(index[bucket])] = false;
        size--;
        // Backward-shift deletion: pull later entries of the probe run into the gap so that no
        // lookup stops early at it (no tombstone markers in the index itself).
        int mask = index.length - 1;
        int gap = bucket;
        for (int b = (gap + 1) & mask; index[b] != 0; b = (b + 1) & mask) {
            int home = hashOf(index[b]) & mask;
            if (((b - home) & mask) >= ((b - gap) & mask)) {
                index[gap] = index[b];
                gap = b;
            }
        }
        index[gap] = 0;
    }
}
