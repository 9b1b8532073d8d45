package io.statecast.overlay.node;

/**
 * Where an {@link OverlayNode} stands in the life of its overlay. The states say whether the node
 * is part of an overlay and whether its view has settled; they are the same for every kind of
 * overlay node.
 *
 * <p>Leadership (the blueprint's and HyperCast's <em>leader</em>: the node none of whose
 * neighbours has a greater logical address, the root of a spanning tree) is deliberately not a
 * state but the flag {@link Topology#leader()}: a leader can itself be settled or still converging,
 * and every state below but {@link #STOPPED} can hold for a leader.
 *
 * <pre>
 *   STOPPED --join()--> JOINING --first neighbour--> INCOMPLETE --no change for N heartbeats--> STABLE
 *      ^                   ^  (alone by design: empty buddy list)  -----------------------------^  |
 *      |                   +------------------- lost every neighbour ----------------------------+
 *      +--------------------------------- leave() from any state
 * </pre>
 */
public enum NodeState {

    /** Not started, or left: sends nothing and ignores protocol messages. */
    STOPPED,

    /**
     * Started and looking for an overlay (contacting buddies), with no neighbour yet. Also the
     * brief moment (about one round trip) between a node's first contact with a peer and the
     * first neighbour relation that results.
     */
    JOINING,

    /**
     * Part of an overlay, but its neighbours or trees changed within the last few heartbeats:
     * forwarding works, trees may still be converging (transient loops are cut by hop limits and
     * duplicate suppression).
     */
    INCOMPLETE,

    /**
     * Part of an overlay, and nothing the node sees (neighbours, parents, children) has changed
     * for the configured number of heartbeats. A node that is alone by design (empty buddy list)
     * is a one-node overlay and stable at once.
     */
    STABLE;

    /** True in {@link #INCOMPLETE} and {@link #STABLE}: the node is part of an overlay. */
    public boolean connected() {
        return this == INCOMPLETE || this == STABLE;
    }
}
