package io.statecast.messagestore;

import io.statecast.messagestore.flow.InFlightCounter;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.overlay.forward.OverlayContext;

/**
 * What a {@link Shard} needs of its store, and nothing else: the overlay, the node's counters, the
 * registry, the store-wide budgets (backlog, live instances) and the way to another shard. The
 * store implements it; a shard never sees the store itself, so what crosses between the two is
 * this list. Every method may be called from any shard's thread.
 */
interface ShardContext {

    /** The overlay the store is open on. */
    OverlayContext overlay();

    /** The node-wide counters. */
    Counters nodeCounters();

    /** The service loaded under {@code serviceId} now (a registry lookup), or {@code null}. */
    ServiceRuntime service(int serviceId);

    /** Whether the store is closed (messages still queued are dropped). */
    boolean closed();

    /** Counts a dropped message, for the node and for {@code service} unless {@code null}. */
    void drop(DropReason reason, ServiceRuntime service);

    /** A shard took {@code in} off its queue: it no longer counts in the store's backlog. */
    void taken(Inbound in);

    /**
     * Hands {@code in} to the shard of its key, or to the shard that keys it when it has no key
     * yet; it counts in the backlog again until that shard takes it.
     */
    void route(Inbound in);

    /** Takes one unit of the live-instance budget; false when the store is at its limit. */
    boolean reserveInstance();

    /** Gives back a unit of the live-instance budget (an instance ended). */
    void releaseInstance();

    /** Quarantines {@code service}: unloaded, its instances ended, its spec refused; idempotent. */
    void quarantine(ServiceRuntime service, String reason);

    /** The count of the local application's messages of {@code serviceId} in flight. */
    InFlightCounter inFlightCounter(int serviceId);
}
