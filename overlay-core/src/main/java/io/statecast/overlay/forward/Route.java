package io.statecast.overlay.forward;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import java.util.Objects;

/**
 * Where a message a node originates goes: the delivery mode, the unicast destination, the root of
 * the tree it travels on when that is not implied by the mode, and its hop limit.
 *
 * <p>A MessageStore that must reach only its children in the tree rooted at a message's source
 * {@code s} (a Reset of the hop-to-hop service, say) sends a multicast with {@code root = s} and
 * {@code hopLimit = 1}.
 *
 * @param mode        unicast, multicast or flood
 * @param destination the destination for unicast, {@code null} otherwise
 * @param root        the tree's root if not the one the mode implies, else {@code null}
 * @param hopLimit    hops the message may travel, 0..255, or {@link #DEFAULT_HOP_LIMIT} for the
 *                    socket's configured limit
 */
public record Route(DeliveryMode mode, LogicalAddress destination, LogicalAddress root, int hopLimit) {

    /** Marks "use the configured hop limit". */
    public static final int DEFAULT_HOP_LIMIT = -1;

    /** Checks consistency. */
    public Route {
        Objects.requireNonNull(mode, "mode");
        if (mode == DeliveryMode.UNICAST && destination == null) {
            throw new IllegalArgumentException("a unicast route needs a destination");
        }
        if (mode != DeliveryMode.UNICAST && destination != null) {
            throw new IllegalArgumentException(mode + " has no destination");
        }
        if (hopLimit != DEFAULT_HOP_LIMIT && (hopLimit < 0 || hopLimit > OverlayMessage.MAX_HOP_LIMIT)) {
            throw new IllegalArgumentException("hop limit must be 0.." + OverlayMessage.MAX_HOP_LIMIT + ", got " + hopLimit);
        }
    }

    /** Down the tree rooted at this node, to every node. */
    public static Route multicast() {
        return new Route(DeliveryMode.MULTICAST, null, null, DEFAULT_HOP_LIMIT);
    }

    /** Up the tree rooted at {@code destination}. */
    public static Route unicast(LogicalAddress destination) {
        return new Route(DeliveryMode.UNICAST, Objects.requireNonNull(destination, "destination"), null, DEFAULT_HOP_LIMIT);
    }

    /** To every neighbour, and on, with duplicate suppression. */
    public static Route flood() {
        return new Route(DeliveryMode.FLOOD, null, null, DEFAULT_HOP_LIMIT);
    }

    /** This route on the tree rooted at {@code newRoot}. */
    public Route withRoot(LogicalAddress newRoot) {
        return new Route(mode, destination, newRoot, hopLimit);
    }

    /** This route with at most {@code limit} hops. */
    public Route withHopLimit(int limit) {
        return new Route(mode, destination, root, limit);
    }
}
