package io.statecast.overlay.socket;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.util.Objects;
import java.util.Optional;

/**
 * What a failure-detector service (such as the shipped {@code heartbeat-fd}) reports to the
 * application about a peer: it is up (its first heartbeat, or one after it was reported down) or
 * down, and why. The service reports by {@code toApplication} control messages whose source is
 * the peer and whose MessageType says which event it is ({@link PeerEventTypes}); the socket turns
 * them into these values ({@link OverlaySocket#onPeerEvent}), or an application that takes raw
 * messages decodes them with {@link #from}.
 *
 * @param serviceId the ServiceID of the service that reported it
 * @param peer      the peer's logical address
 * @param kind      up or down
 * @param cause     why it is down; {@link Cause#NONE} for {@link Kind#UP}
 */
public record PeerEvent(int serviceId, LogicalAddress peer, Kind kind, Cause cause) {

    /** Whether the peer is up or down. */
    public enum Kind {
        /** The peer is alive: its first heartbeat, or one after it was reported down. */
        UP,
        /** The peer is suspected to have failed. */
        DOWN
    }

    /** Why a peer is reported down. */
    public enum Cause {
        /** An {@link Kind#UP} event has no cause. */
        NONE,
        /** Nothing arrived from the peer for the service's threshold (it may be slow, or cut off). */
        TIMEOUT,
        /** The overlay itself no longer knows the peer (it left, or the overlay detected it gone), and it is silent. */
        CRASH
    }

    /** Checks the parts: an up event has no cause, a down event has one. */
    public PeerEvent {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(cause, "cause");
        if ((kind == Kind.UP) != (cause == Cause.NONE)) {
            throw new IllegalArgumentException("a " + kind + " event cannot have cause " + cause);
        }
    }

    /**
     * The event {@code message} reports, if it is a control message of {@code serviceId} with one
     * of {@code types}; empty for anything else (a data message, another service, another type).
     */
    public static Optional<PeerEvent> from(OverlayMessage message, int serviceId, PeerEventTypes types) {
        FsmExtension fsm = message.fsm();
        if (fsm == null || fsm.serviceId() != serviceId || fsm.messageType() == FsmExtension.PAYLOAD_TYPE) {
            return Optional.empty();
        }
        byte t = fsm.messageType();
        if (t == types.up()) {
            return Optional.of(new PeerEvent(serviceId, message.source(), Kind.UP, Cause.NONE));
        }
        if (t == types.downTimeout()) {
            return Optional.of(new PeerEvent(serviceId, message.source(), Kind.DOWN, Cause.TIMEOUT));
        }
        if (t == types.downCrash()) {
            return Optional.of(new PeerEvent(serviceId, message.source(), Kind.DOWN, Cause.CRASH));
        }
        return Optional.empty();
    }
}
