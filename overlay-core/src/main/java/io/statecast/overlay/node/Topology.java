package io.statecast.overlay.node;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import java.util.List;
import java.util.Set;

/**
 * An immutable snapshot of what an {@link OverlayNode} knows about the overlay around it: its
 * neighbours, the substrate addresses they are reached at, and the trees embedded in the overlay.
 *
 * <p>The node's protocol thread builds a new snapshot whenever its view changes and publishes it
 * through a volatile reference ({@link OverlayNode#topology()}). Every other thread — the
 * forwarding engine on I/O threads, MessageStore shards, the application — reads a snapshot
 * without locks and sees one consistent view for as long as it holds the reference. A snapshot
 * never changes after publication; implementations must make every method safe to call from
 * any thread.
 *
 * <p>Trees (the blueprint's embedded trees): for any node {@code s} of the overlay there is a
 * tree rooted at {@code s}. Multicast messages from {@code s} travel down it (to
 * {@link #children children(s)}); unicast messages to {@code s} travel up it (to
 * {@link #parent parent(s)}).
 */
public interface Topology {

    /** The logical address of the node this snapshot belongs to. */
    LogicalAddress self();

    /** The node's state when this snapshot was published. */
    NodeState state();

    /**
     * True if this node is the leader of its overlay partition (DT: no neighbour has a greater
     * logical address; spanning tree: this node is the root). See {@link NodeState} for why this
     * is a flag and not a state.
     */
    boolean leader();

    /**
     * The current overlay neighbours: the nodes this node exchanges application messages with
     * directly. Immutable.
     */
    Set<LogicalAddress> neighbours();

    /** True if {@code address} is a current neighbour. */
    default boolean isNeighbour(LogicalAddress address) {
        return neighbours().contains(address);
    }

    /**
     * The substrate address at which neighbour {@code neighbour} is reached, or {@code null} if
     * it is not a neighbour. This is the node's part of the blueprint's address repository: the
     * forwarding engine resolves every next hop here.
     */
    SubstrateAddress substrateAddress(LogicalAddress neighbour);

    /**
     * This node's parent in the tree rooted at {@code root}: the neighbour toward {@code root}.
     *
     * @return the parent, or {@code null} if {@code root} is this node or cannot be reached
     */
    LogicalAddress parent(LogicalAddress root);

    /**
     * This node's children in the tree rooted at {@code root}: the neighbours whose parent
     * toward {@code root} is this node. Immutable, in a deterministic order; empty for a leaf.
     */
    List<LogicalAddress> children(LogicalAddress root);

    /**
     * The neighbour a unicast message to {@code destination} goes to next: the parent in the
     * tree rooted at the destination.
     *
     * @return the next hop, or {@code null} if {@code destination} is this node or unreachable
     */
    default LogicalAddress nextHop(LogicalAddress destination) {
        return parent(destination);
    }

    /** Increases with every snapshot a node publishes; tells a reader whether its view is current. */
    long version();
}
