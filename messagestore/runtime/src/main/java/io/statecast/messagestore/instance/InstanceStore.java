package io.statecast.messagestore.instance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * One shard's live instances by key (the blueprint's <em>FSMStore</em>). Bounds are enforced by
 * the caller (the live-instance budget is per store, across shards).
 *
 * <p>An open-addressing table (linear probing, at most half full, backward-shift deletion) with
 * three parallel arrays: the instances, their keys' hashes, and when a message last reached each.
 * The last array is what the idle sweep reads. With a hash map the sweep walked every entry and
 * every instance: with the 375,000 instances e2e-ack keeps lingering at 10,000 messages/s, each a
 * cache miss or two (and a collector's barrier), that held the shard thread for tens of
 * milliseconds every ten seconds. Now it reads the arrays in order and touches only the
 * instances it removes. The table also needs no entry object per instance.
 *
 * <p>A key's hash keeps eight consecutive MessageIDs of a source together in one run of slots
 * (one cache line of the instance array) and scatters the runs, as {@link Tombstones} does.
 *
 * <p>Confined to the shard's thread.
 */
public final class InstanceStore {

    private static final int MIN_SLOTS = 256;
    private static final int MAX_SLOTS = 1 << 30;

    private ServiceInstance[] instances = new ServiceInstance[MIN_SLOTS];
    /** The key hash of the instance in each slot; 0 marks an empty slot (no hash is 0). */
    private int[] hashes = new int[MIN_SLOTS];
    /** When a message last reached the instance in the same slot (node clock, ns). */
    private long[] lastMessage = new long[MIN_SLOTS];
    private int size;

    /**
     * The slot holding the instance with {@code key}, or -1. A slot stays valid until an instance
     * is added or removed.
     */
    public int find(InstanceKey key) {
        return find(key, hash(key));
    }

    /** The instance in {@code slot} (from {@link #find}). */
    public ServiceInstance at(int slot) {
        return instances[slot];
    }

    /** The instance with {@code key}, or {@code null}. */
    public ServiceInstance get(InstanceKey key) {
        int slot = find(key);
        return slot < 0 ? null : instances[slot];
    }

    /** A message reached the instance in {@code slot} (from {@link #find}) at {@code nowNanos}. */
    public void touch(int slot, long nowNanos) {
        lastMessage[slot] = nowNanos;
    }

    /**
     * Adds a new instance, reached by a message at {@code nowNanos}; one stored under the same key
     * is replaced.
     */
    public void add(ServiceInstance instance, long nowNanos) {
        InstanceKey key = instance.key();
        int h = hash(key);
        int slot = find(key, h);
        if (slot < 0) {
            if (2 * (size + 1) > hashes.length) {
                resize(instances.length * 2);
            }
            slot = emptySlot(h);
            size++;
        }
        instances[slot] = instance;
        hashes[slot] = h;
        lastMessage[slot] = nowNanos;
    }

    /** Removes {@code instance} if it is the one stored under its key. */
    public boolean remove(ServiceInstance instance) {
        int slot = find(instance.key());
        if (slot < 0 || instances[slot] != instance) {
            return false;
        }
        delete(slot);
        return true;
    }

    /**
     * Removes and returns the instances no message reached since {@code idleSinceNanos}, the one
     * idle longest first. An instance started on deployment is not idle: nothing but its own
     * timers may ever reach it, and it ends only by itself or with its service.
     */
    public List<ServiceInstance> removeIdle(long idleSinceNanos) {
        List<Idle> idle = null;
        for (int i = 0; i < instances.length; i++) {
            if (hashes[i] != 0 && lastMessage[i] - idleSinceNanos <= 0 && !instances[i].startedOnDeploy()) {
                if (idle == null) {
                    idle = new ArrayList<>();
                }
                idle.add(new Idle(instances[i], lastMessage[i] - idleSinceNanos));
            }
        }
        if (idle == null) {
            return List.of();
        }
        idle.sort(Comparator.comparingLong(Idle::age));
        List<ServiceInstance> out = new ArrayList<>(idle.size());
        for (Idle i : idle) {
            remove(i.instance());
            out.add(i.instance());
        }
        return out;
    }

    /** An idle instance and when a message last reached it, relative to the idle bound. */
    private record Idle(ServiceInstance instance, long age) {
    }

    /** Removes and returns every instance that {@code which} accepts. */
    public List<ServiceInstance> removeIf(Predicate<ServiceInstance> which) {
        List<ServiceInstance> out = new ArrayList<>();
        for (int s = 0; s < hashes.length; s++) {
            if (hashes[s] != 0 && which.test(instances[s])) {
                out.add(instances[s]);
            }
        }
        for (ServiceInstance i : out) {
            remove(i);
        }
        return out;
    }

    /** Number of live instances. */
    public int size() {
        return size;
    }

    // Probing reads the hashes only, and loads an instance reference only where the hash matches:
    // a reference to another lingering instance would be a cold line, and under ZGC possibly a
    // remap on the load barrier's slow path, for an instance the lookup does not want.
    private int find(InstanceKey key, int h) {
        int mask = hashes.length - 1;
        for (int s = h & mask; ; s = (s + 1) & mask) {
            int at = hashes[s];
            if (at == 0) {
                return -1;
            }
            if (at == h && instances[s].key().equals(key)) {
                return s;
            }
        }
    }

    private int emptySlot(int h) {
        int mask = hashes.length - 1;
        int s = h & mask;
        while (hashes[s] != 0) {
            s = (s + 1) & mask;
        }
        return s;
    }

    /** Empties {@code slot}, pulling later entries of its probe run into the gap (no markers). */
    private void delete(int slot) {
        int mask = hashes.length - 1;
        int gap = slot;
        for (int s = (gap + 1) & mask; hashes[s] != 0; s = (s + 1) & mask) {
            int home = hashes[s] & mask;
            if (((s - home) & mask) >= ((s - gap) & mask)) {
                instances[gap] = instances[s];
                hashes[gap] = hashes[s];
                lastMessage[gap] = lastMessage[s];
                gap = s;
            }
        }
        instances[gap] = null;
        hashes[gap] = 0;
        size--;
    }

    private void resize(int length) {
        if (length > MAX_SLOTS) {
            throw new IllegalStateException("more than " + MAX_SLOTS / 2 + " instances in one shard");
        }
        ServiceInstance[] oldInstances = instances;
        int[] oldHashes = hashes;
        long[] oldLast = lastMessage;
        instances = new ServiceInstance[length];
        hashes = new int[length];
        lastMessage = new long[length];
        for (int i = 0; i < oldInstances.length; i++) {
            if (oldHashes[i] != 0) {
                int s = emptySlot(oldHashes[i]);
                instances[s] = oldInstances[i];
                hashes[s] = oldHashes[i];
                lastMessage[s] = oldLast[i];
            }
        }
    }

    /**
     * The key's hash: eight consecutive MessageIDs share a run of slots; the runs, the services
     * and the flow sources are mixed (the high half of a 64-bit mix). Never 0, the empty mark.
     */
    static int hash(InstanceKey key) {
        long m = key.messageId();
        long h = (m >>> 3) ^ (key.serviceId() * 0xD6E8FEB86659FD93L);
        if (key.address() != null) {
            h ^= key.address().hashCode() * 0x9E3779B97F4A7C15L;
        }
        if (key.peer() != null) {
            h ^= key.peer().hashCode() * 0xBF58476D1CE4E5B9L;
        }
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        int hash = (int) (h >>> 32) & ~7 | (int) m & 7;
        return hash != 0 ? hash : 8;
    }
}
