package io.statecast.overlay.message;

import io.statecast.overlay.address.LogicalAddress;
import java.util.List;
import java.util.Objects;

/**
 * A HyperCast-style <em>application message</em>: a header followed by a chain of extensions.
 * Immutable; the forwarding engine makes a modified copy per hop ({@link #forwardedBy}).
 *
 * @param mode        unicast, multicast or flood
 * @param hopLimit    hops left, 0..255; a node does not forward a message whose limit is 0
 * @param source      the node that first sent the message (root of a multicast tree)
 * @param destination the unicast destination, or {@code null} for multicast and flood
 * @param previousHop the node that sent this copy; rewritten at every hop
 * @param root        root of the tree the message travels on, or {@code null} when implied by
 *                    the mode (source for multicast, destination for unicast)
 * @param extensions  the extension chain in wire order (at most one payload, one FSM and one fields
 *                    extension; fields only beside an FSM extension)
 */
public record OverlayMessage(
        DeliveryMode mode,
        int hopLimit,
        LogicalAddress source,
        LogicalAddress destination,
        LogicalAddress previousHop,
        LogicalAddress root,
        List<Extension> extensions) implements WireMessage {

    /** Largest hop limit the one-byte field holds. */
    public static final int MAX_HOP_LIMIT = 255;

    /**
     * Checks the header's consistency.
     *
     * @throws IllegalArgumentException when a field is out of range, a unicast has no
     *                                  destination, addresses mix families, an extension
     *                                  type appears twice, or fields come without an FSM extension
     */
    public OverlayMessage {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(previousHop, "previousHop");
        extensions = List.copyOf(extensions);
        if (hopLimit < 0 || hopLimit > MAX_HOP_LIMIT) {
            throw new IllegalArgumentException("hopLimit must be 0.." + MAX_HOP_LIMIT + ", got " + hopLimit);
        }
        if (mode == DeliveryMode.UNICAST && destination == null) {
            throw new IllegalArgumentException("a unicast message needs a destination");
        }
        LogicalAddress.Family f = source.family();
        if (previousHop.family() != f
                || (destination != null && destination.family() != f)
                || (root != null && root.family() != f)) {
            throw new IllegalArgumentException("all addresses of a message must be of one family (" + f + ")");
        }
        boolean payload = false;
        boolean fsm = false;
        boolean fields = false;
        for (Extension e : extensions) {
            if (e instanceof PayloadExtension) {
                if (payload) {
                    throw new IllegalArgumentException("more than one payload extension");
                }
                payload = true;
            } else if (e instanceof FsmExtension) {
                if (fsm) {
                    throw new IllegalArgumentException("more than one FSM extension");
                }
                fsm = true;
            } else if (e instanceof FieldsExtension) {
                if (fields) {
                    throw new IllegalArgumentException("more than one fields extension");
                }
                fields = true;
            }
        }
        if (fields && !fsm) {
            throw new IllegalArgumentException("a fields extension needs an FSM extension");
        }
    }

    /** The payload bytes, or {@code null} when the message has no payload extension. */
    public byte[] payload() {
        for (Extension e : extensions) {
            if (e instanceof PayloadExtension p) {
                return p.data();
            }
        }
        return null;
    }

    /** The FSM extension, or {@code null} when the message is not marked with a service. */
    public FsmExtension fsm() {
        for (Extension e : extensions) {
            if (e instanceof FsmExtension f) {
                return f;
            }
        }
        return null;
    }

    /** The message's fields: those of its fields extension, else {@link MessageFields#EMPTY}. */
    public MessageFields fields() {
        for (Extension e : extensions) {
            if (e instanceof FieldsExtension f) {
                return f.fields();
            }
        }
        return MessageFields.EMPTY;
    }

    /** The root of the tree this message travels on: explicit root, else source (multicast, flood) or destination (unicast). */
    public LogicalAddress treeRoot() {
        if (root != null) {
            return root;
        }
        return mode == DeliveryMode.UNICAST ? destination : source;
    }

    /** The copy a node sends on: previous hop set to that node, hop limit one less. */
    public OverlayMessage forwardedBy(LogicalAddress self) {
        if (hopLimit == 0) {
            throw new IllegalStateException("hop limit exhausted");
        }
        return new OverlayMessage(mode, hopLimit - 1, source, destination, self, root, extensions);
    }
}
