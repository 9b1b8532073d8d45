package io.statecast.overlay.node;

/**
 * What an overlay node counts: each protocol event has one constant, so two nodes cannot spell
 * one counter two ways. Its {@link #label()} is the name in {@link OverlayNode#counters()}, the
 * node's {@code stats} and the {@code event} tag of {@code statecast_node_events_total}.
 * Malformed protocol messages are counted apart, by the decoder's reason
 * ({@code malformed.REASON}).
 */
public enum NodeEvent {
    /** DT: a RANDOM address another node held was drawn again while joining. */
    ADDRESS_REDRAWN("addressRedrawn"),
    /** Tree: beacons received. */
    BEACONS_RECEIVED("beaconsReceived"),
    /** Tree: beacons sent. */
    BEACONS_SENT("beaconsSent"),
    /** Tree: acknowledgements sent to a child that named this node its parent. */
    CHILD_ACKS_SENT("childAcksSent"),
    /** DT: Hellos sent to the best candidate while discovering neighbours. */
    DISCOVERY_HELLO_SENT("discoveryHelloSent"),
    /** Protocol messages dropped because the protocol thread's queue was full. */
    DROPPED_QUEUE_FULL("droppedQueueFull"),
    /** DT: a Hello or NewNode from another node with this node's address. */
    DUPLICATE_ADDRESS("duplicateAddress"),
    /** Tree: a beacon from another node with this node's id. */
    DUPLICATE_ID("duplicateId"),
    /** DT: the node gave up (join failed or a fatal protocol error). */
    FAILED("failed"),
    /** DT: a Goodbye naming an address that is not the sender's neighbour entry (ignored). */
    GOODBYE_FROM_OTHER_ADDRESS("goodbyeFromOtherAddress"),
    /** Goodbyes received from leaving neighbours or links. */
    GOODBYES_RECEIVED("goodbyesReceived"),
    /** Goodbyes sent when leaving or refusing. */
    GOODBYES_SENT("goodbyesSent"),
    /** DT: a Hello addressed to another logical address (ignored). */
    HELLO_FOR_OTHER_ADDRESS("helloForOtherAddress"),
    /** DT: Hellos received from nodes that count this node as a neighbour. */
    HELLO_NEIGHBOR_RECEIVED("helloNeighborReceived"),
    /** DT: Hellos sent to neighbours. */
    HELLO_NEIGHBOR_SENT("helloNeighborSent"),
    /** DT: Hellos received from nodes that do not count this node as a neighbour. */
    HELLO_NOT_NEIGHBOR_RECEIVED("helloNotNeighborReceived"),
    /** DT: Hellos sent to nodes that are not neighbours. */
    HELLO_NOT_NEIGHBOR_SENT("helloNotNeighborSent"),
    /** Rendezvous: an IAmHere from another partition (the partitions merge). */
    I_AM_HERE_OTHER_PARTITION("iAmHereOtherPartition"),
    /** Rendezvous: IAmHere messages received. */
    I_AM_HERE_RECEIVED("iAmHereReceived"),
    /** Rendezvous: an IAmHere from this node's own partition. */
    I_AM_HERE_SAME_PARTITION("iAmHereSamePartition"),
    /** Rendezvous: IAmHere messages sent. */
    I_AM_HERE_SENT("iAmHereSent"),
    /** DT: IAmLeader announcements forwarded. */
    I_AM_LEADER_FORWARDED("iAmLeaderForwarded"),
    /** DT: IAmLeader announcements ignored (not a better leader). */
    I_AM_LEADER_IGNORED("iAmLeaderIgnored"),
    /** DT: IAmLeader announcements received. */
    I_AM_LEADER_RECEIVED("iAmLeaderReceived"),
    /** DT: IAmLeader announcements sent as leader. */
    I_AM_LEADER_SENT("iAmLeaderSent"),
    /** Protocol messages received after the node stopped (ignored). */
    IGNORED_WHILE_STOPPED("ignoredWhileStopped"),
    /** Tree: links to other nodes added. */
    LINKS_ADDED("linksAdded"),
    /** Tree: links removed because their beacons stopped. */
    LINKS_TIMED_OUT("linksTimedOut"),
    /** DT: neighbours added. */
    NEIGHBOURS_ADDED("neighboursAdded"),
    /** DT: neighbours dropped because a closer node replaced them. */
    NEIGHBOURS_EVICTED("neighboursEvicted"),
    /** DT: neighbours removed after their Goodbye. */
    NEIGHBOURS_LEFT("neighboursLeft"),
    /** DT: neighbours removed because their Hellos stopped. */
    NEIGHBOURS_TIMED_OUT("neighboursTimedOut"),
    /** DT: NewNode messages for which this node took the joiner as a neighbour. */
    NEW_NODE_ACCEPTED("newNodeAccepted"),
    /** DT: NewNode messages that could be routed no closer to the joiner. */
    NEW_NODE_DEAD_END("newNodeDeadEnd"),
    /** DT: NewNode messages forwarded toward the joiner's address. */
    NEW_NODE_FORWARDED("newNodeForwarded"),
    /** DT: NewNode messages from the leader accepted. */
    NEW_NODE_FROM_LEADER_ACCEPTED("newNodeFromLeaderAccepted"),
    /** DT: Hellos sent to tell a joiner of a closer node. */
    NEW_NODE_HINT_SENT("newNodeHintSent"),
    /** DT: NewNode messages dropped at their hop limit. */
    NEW_NODE_HOP_LIMIT("newNodeHopLimit"),
    /** DT: NewNode messages about a node already known. */
    NEW_NODE_KNOWN("newNodeKnown"),
    /** DT: NewNode messages received. */
    NEW_NODE_RECEIVED("newNodeReceived"),
    /** NewNode messages sent. */
    NEW_NODE_SENT("newNodeSent"),
    /** DT: this node's own NewNode came back to it. */
    OWN_NEW_NODE("ownNewNode"),
    /** Tree: links refused (table full), answered with a Goodbye. */
    REFUSED_LINKS("refusedLinks"),
    /** DT: neighbours refused (table full). */
    REFUSED_NEIGHBOURS("refusedNeighbours"),
    /** Rendezvous beacons or announcements sent. */
    RENDEZVOUS_SENT("rendezvousSent"),
    /** Tree: roots forgotten after their beacons stopped. */
    ROOTS_FORGOTTEN("rootsForgotten"),
    /** Round-trip samples taken from heartbeat timestamps. */
    RTT_SAMPLES("rttSamples"),
    /** Round-trip samples dropped as impossible (negative or over 60 s). */
    RTT_SAMPLES_DROPPED("rttSamplesDropped"),
    /** A protocol message from one of this node's own substrate addresses (ignored). */
    SELF_CONTACT("selfContact"),
    /** Protocol messages the transport refused or failed to send. */
    SEND_FAILED("sendFailed"),
    /** Tree: subtree id lists cut at maxSubtreeIds. */
    SUBTREE_TRUNCATED("subtreeTruncated");

    private final String label;

    NodeEvent(String label) {
        this.label = label;
    }

    /** The counter's name as reported. */
    public String label() {
        return label;
    }
}
