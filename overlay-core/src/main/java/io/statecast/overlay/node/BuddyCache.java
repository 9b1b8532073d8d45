package io.statecast.overlay.node;

import io.statecast.overlay.address.SubstrateAddress;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Substrate addresses of peers a node lost to a timeout, kept as extra rendezvous targets so that
 * a healed partition is found again. Bounded: beyond {@code capacity} the address remembered
 * longest ago is forgotten. Not thread-safe (protocol thread only).
 */
public final class BuddyCache {

    private final int capacity;
    private final LinkedHashSet<SubstrateAddress> addresses = new LinkedHashSet<>();

    /** @param capacity addresses kept at most; 0 keeps none */
    public BuddyCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Remembers {@code address} as the most recent one (ignores {@code null}). */
    public void remember(SubstrateAddress address) {
        if (capacity == 0 || address == null) {
            return;
        }
        addresses.remove(address);
        addresses.add(address);
        while (addresses.size() > capacity) {
            Iterator<SubstrateAddress> it = addresses.iterator();
            it.next();
            it.remove();
        }
    }

    /** The remembered addresses, least recent first (a read-only view). */
    public Set<SubstrateAddress> addresses() {
        return Collections.unmodifiableSet(addresses);
    }

    /** Whether nothing is remembered. */
    public boolean isEmpty() {
        return addresses.isEmpty();
    }
}
