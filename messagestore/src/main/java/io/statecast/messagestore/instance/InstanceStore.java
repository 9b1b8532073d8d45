package io.statecast.messagestore.instance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One shard's live instances by key (the blueprint's <em>FSMStore</em>). Bounds are enforced by
 * the caller (the live-instance budget is per store, across shards).
 *
 * <p>A plain hash map, not one kept in order of use: reordering on every message rewrote links
 * between entries of different ages, and with hundreds of thousands of lingering instances those
 * old-to-young references were a steady load on the collector's remembered sets. Finding idle
 * instances scans instead; the sweep that asks runs a few times per idle timeout.
 *
 * <p>Confined to the shard's thread.
 */
public final class InstanceStore {

    private final HashMap<InstanceKey, ServiceInstance> live = new HashMap<>(256);

    /** The instance with {@code key}, or {@code null}. */
    public ServiceInstance get(InstanceKey key) {
        return live.get(key);
    }

    /** Adds a new instance. */
    public void add(ServiceInstance instance) {
        live.put(instance.key(), instance);
    }

    /** Removes {@code instance} if it is the one stored under its key. */
    public boolean remove(ServiceInstance instance) {
        return live.remove(instance.key(), instance);
    }

    /**
     * Removes and returns the instances no message reached since {@code idleSinceNanos}, the one
     * idle longest first.
     */
    public List<ServiceInstance> removeIdle(long idleSinceNanos) {
        List<ServiceInstance> out = null;
        Iterator<ServiceInstance> it = live.values().iterator();
        while (it.hasNext()) {
            ServiceInstance i = it.next();
            if (i.lastMessageNanos() - idleSinceNanos > 0) {
                continue;
            }
            it.remove();
            if (out == null) {
                out = new ArrayList<>();
            }
            out.add(i);
        }
        if (out == null) {
            return List.of();
        }
        out.sort(Comparator.comparingLong(i -> i.lastMessageNanos() - idleSinceNanos));
        return out;
    }

    /** Removes and returns every instance that {@code which} accepts. */
    public List<ServiceInstance> removeIf(Predicate<ServiceInstance> which) {
        List<ServiceInstance> out = new ArrayList<>();
        Iterator<Map.Entry<InstanceKey, ServiceInstance>> it = live.entrySet().iterator();
        while (it.hasNext()) {
            ServiceInstance i = it.next().getValue();
            if (which.test(i)) {
                it.remove();
                out.add(i);
            }
        }
        return out;
    }

    /** Number of live instances. */
    public int size() {
        return live.size();
    }
}
