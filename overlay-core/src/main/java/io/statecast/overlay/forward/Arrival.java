package io.statecast.overlay.forward;

/** Why the forwarding engine hands a message to the {@link MessageStorePort}. */
public enum Arrival {
    /** The local application sent it (this node is the source). */
    FROM_APPLICATION,
    /**
     * It reached this node as a target: a multicast or flood message passing through, or a
     * unicast message addressed to this node. The store decides whether and when the application
     * sees it ({@link OverlayContext#toApplication}).
     */
    DELIVERED,
    /**
     * A unicast message this node relays toward another destination; handed over only for
     * services whose <em>processIntermediateUnicastMessage</em> is true.
     */
    TRANSIT
}
