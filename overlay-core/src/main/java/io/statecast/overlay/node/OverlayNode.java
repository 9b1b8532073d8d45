package io.statecast.overlay.node;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The blueprint's <em>overlay node</em>: runs the protocol that builds and maintains the overlay
 * topology, and is the only component that knows that topology. One implementation per kind of
 * overlay (Delaunay triangulation, spanning tree).
 *
 * <h2>Threads</h2>
 * Protocol work is confined to the node's timer service ({@link NodeEnvironment#timers()}):
 * {@link #join()}, {@link #leave()} and {@link #onProtocolMessage} may be called from any thread
 * and only post work there, so the node's mutable state needs no locks. The node publishes what
 * it knows as an immutable {@link Topology} snapshot through a volatile reference; queries
 * ({@link #topology()}, {@link #neighbours()}, {@link #parent}, {@link #children},
 * {@link #nextHop}) read the current snapshot, lock-free, from any thread. A caller that asks
 * several questions should take one snapshot and ask it, so the answers agree.
 *
 * <h2>Addresses</h2>
 * Each neighbour's substrate address is in the snapshot ({@link Topology#substrateAddress}), so
 * the forwarding engine resolves logical next hops to substrate addresses without asking the
 * node's thread.
 */
public interface OverlayNode {

    /**
     * This node's logical address. Fixed for the node's life with one exception: a DT node whose
     * random coordinates turn out to be taken by another node draws new ones while it is not
     * settled in an overlay (never yet {@link NodeState#STABLE}, or {@link NodeState#JOINING}
     * again after losing every neighbour). Every
     * snapshot's {@link Topology#self()} is the address at its publication.
     */
    LogicalAddress localAddress();

    /**
     * Why the node stopped by itself while running — e.g. its fixed logical address is taken by
     * another node — or {@code null} if it did not (it is running, or was told to leave).
     */
    default String failure() {
        return null;
    }

    /**
     * Starts the protocol: contacts buddies, begins heartbeats. Returns at once; watch
     * {@link #state()} or a {@link NodeListener} to learn when the node is part of an overlay.
     * Calling it on a running node does nothing; a node that has left may not join again.
     */
    void join();

    /**
     * Leaves the overlay: says Goodbye to every neighbour, stops all timers, and ends in
     * {@link NodeState#STOPPED}. Returns at once; the work runs on the protocol thread.
     * Idempotent.
     */
    void leave();

    /**
     * Hands the node a protocol message of its overlay (already checked by the codec for the
     * overlay-ID hash). Any thread; the node posts it to its protocol thread. A malformed body is
     * dropped and counted, never thrown.
     *
     * @param message the protocol message
     * @param from    the substrate address it came from
     */
    void onProtocolMessage(ProtocolMessage message, SubstrateAddress from);

    /** The current snapshot of the node's view. Lock-free, any thread. */
    Topology topology();

    /** The node's current state. */
    default NodeState state() {
        return topology().state();
    }

    /** The current neighbours. */
    default Set<LogicalAddress> neighbours() {
        return topology().neighbours();
    }

    /** The parent toward {@code root}; see {@link Topology#parent}. */
    default LogicalAddress parent(LogicalAddress root) {
        return topology().parent(root);
    }

    /** The children in the tree rooted at {@code root}; see {@link Topology#children}. */
    default List<LogicalAddress> children(LogicalAddress root) {
        return topology().children(root);
    }

    /** The next hop toward {@code destination}; see {@link Topology#nextHop}. */
    default LogicalAddress nextHop(LogicalAddress destination) {
        return topology().nextHop(destination);
    }

    /**
     * The round-trip time to {@code neighbour} as this node measures it from the timestamps its
     * heartbeats carry ({@link RttTable}): smoothed RTT and variation (RFC 6298). Empty —
     * unknown — if {@code neighbour} is not a neighbour (for a tree node: a link) or no
     * heartbeat exchange with it has completed yet. Read-only, lock-free, any thread; it changes
     * with every heartbeat, so it is not part of the {@link Topology} snapshot. Default: always
     * unknown, for a node that does not measure.
     */
    default Optional<RttEstimate> rtt(LogicalAddress neighbour) {
        return Optional.empty();
    }

    /** Registers a listener for topology and state changes (called on the protocol thread). */
    void addListener(NodeListener listener);

    /** Removes a listener registered earlier. */
    void removeListener(NodeListener listener);

    /**
     * The node's protocol counters by name (messages sent and received by type, malformed bodies
     * by cause, neighbours added, timed out, said goodbye, …). A copy; any thread.
     */
    Map<String, Long> counters();

    /**
     * The live counters behind {@link #counters()}, for binding them as meters, or {@code null}
     * (the default) when the node keeps none of that kind.
     */
    default NodeCounters liveCounters() {
        return null;
    }
}
