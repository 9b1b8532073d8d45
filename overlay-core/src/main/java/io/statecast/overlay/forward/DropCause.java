package io.statecast.overlay.forward;

/** Why the forwarding engine dropped a message (or one copy of it); each is counted. */
public enum DropCause {
    /** The message should go on but its hop limit is 0. */
    HOP_LIMIT,
    /** A multicast whose previous hop is not this node's parent toward the tree's root. */
    PREVIOUS_HOP_NOT_PARENT,
    /** A unicast whose previous hop is not a neighbour. */
    PREVIOUS_HOP_NOT_NEIGHBOUR,
    /** A flood message this node has seen before. */
    DUPLICATE,
    /** A flood message with neither a flood identifier nor an FSM extension: it cannot be deduplicated. */
    NO_FLOOD_ID,
    /** A message this node itself sent came back, or names this node as previous hop. */
    OWN_MESSAGE,
    /** Addresses of another family than this overlay's. */
    WRONG_FAMILY,
    /** No next hop toward a unicast destination. */
    NO_ROUTE,
    /** A next hop whose substrate address is unknown (it stopped being a neighbour meanwhile). */
    NO_SUBSTRATE_ADDRESS,
    /** The substrate refused a copy (queue full, closed). */
    SEND_FAILED,
    /** The application's receive queue was full. */
    APPLICATION_QUEUE_FULL,
    /** The MessageStore refused the message (its queue was full, or it threw). */
    STORE_REJECTED
}
