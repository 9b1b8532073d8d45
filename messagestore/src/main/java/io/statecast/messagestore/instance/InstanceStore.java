package io.statecast.messagestore.instance;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One shard's live instances by key (the blueprint's <em>FSMStore</em>), in order of the last
 * message each received, so that idle instances are found from the front without a scan.
 * Bounds are enforced by the caller (the live-instance budget is per store, across shards).
 *
 * <p>Confined to the shard's thread.
 */
public final class InstanceStore {

    private final LinkedHashMap<InstanceKey, ServiceInstance> live = new LinkedHashMap<>(256, 0.75f, true);

    /**
     * The instance with {@code key}, or {@code null}; marks it as just used (a message arrived).
     */
    public ServiceInstance touch(InstanceKey key) {
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
     * Removes and returns the instances no message reached since {@code idleSinceNanos}, oldest
     * first; stops at the first that is not idle.
     */
    public List<ServiceInstance> removeIdle(long idleSinceNanos) {
        List<ServiceInstance> out = null;
        Iterator<ServiceInstance> it = live.values().iterator();
        while (it.hasNext()) {
            ServiceInstance i = it.next();
            if (i.lastMessageNanos() - idleSinceNanos > 0) {
                break;
            }
            it.remove();
            if (out == null) {
                out = new ArrayList<>();
            }
            out.add(i);
        }
        return out == null ? List.of() : out;
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
