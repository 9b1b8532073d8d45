package io.statecast.messagestore.deploy;

import io.statecast.messagestore.instance.ServiceRuntime;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The loaded services by ServiceID (the blueprint's <em>serviceSpecifications</em> table). Reads
 * are a lookup in an immutable map published through a volatile field — the forwarding engine
 * asks the metaops of every service-marked message from I/O threads — and writes (load, unload,
 * quarantine) copy the map under a lock.
 */
public final class ServiceRegistry {

    private volatile Map<Integer, ServiceRuntime> services = Map.of();

    /** The service with this ServiceID, or {@code null}. */
    public ServiceRuntime get(int serviceId) {
        return services.get(serviceId);
    }

    /** Installs {@code service}, replacing any with the same ServiceID; returns the replaced one or null. */
    public synchronized ServiceRuntime put(ServiceRuntime service) {
        Map<Integer, ServiceRuntime> m = new HashMap<>(services);
        ServiceRuntime old = m.put(service.serviceId(), service);
        services = Map.copyOf(m);
        return old;
    }

    /**
     * Removes the service with this ServiceID if it is {@code expected} (or any, when
     * {@code expected} is null); returns the removed one or null.
     */
    public synchronized ServiceRuntime remove(int serviceId, ServiceRuntime expected) {
        ServiceRuntime cur = services.get(serviceId);
        if (cur == null || (expected != null && cur != expected)) {
            return null;
        }
        Map<Integer, ServiceRuntime> m = new HashMap<>(services);
        m.remove(serviceId);
        services = Map.copyOf(m);
        return cur;
    }

    /** Every loaded service. */
    public Collection<ServiceRuntime> all() {
        return services.values();
    }
}
