package io.statecast.overlay.socket;

import io.statecast.overlay.message.FsmExtension;

/**
 * The MessageTypes by which a failure-detector service reports {@link PeerEvent}s to its
 * application (the {@code Message/MessageType} of its {@code toApplication} actions). Service
 * defined: the spec's documentation names them.
 *
 * @param up          the peer is up
 * @param downTimeout the peer is down: nothing arrived for the threshold
 * @param downCrash   the peer is down: the overlay no longer knows it
 */
public record PeerEventTypes(byte up, byte downTimeout, byte downCrash) {

    /**
     * The types the shipped {@code heartbeat-fd} service uses: up {@code 0x21}, down by timeout
     * {@code 0x22}, down by crash {@code 0x23}.
     */
    public static final PeerEventTypes DEFAULT = new PeerEventTypes((byte) 0x21, (byte) 0x22, (byte) 0x23);

    /** Requires three distinct control types (not the payload type 0x80). */
    public PeerEventTypes {
        if (up == downTimeout || up == downCrash || downTimeout == downCrash) {
            throw new IllegalArgumentException("the three types must differ: " + up + ", " + downTimeout + ", " + downCrash);
        }
        if (up == FsmExtension.PAYLOAD_TYPE || downTimeout == FsmExtension.PAYLOAD_TYPE
                || downCrash == FsmExtension.PAYLOAD_TYPE) {
            throw new IllegalArgumentException("0x80 is the payload type, not a control type");
        }
    }
}
