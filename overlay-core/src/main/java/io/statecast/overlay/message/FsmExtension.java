package io.statecast.overlay.message;

/**
 * The blueprint's <em>FSM extension</em>: marks an application message for a MessageStore service.
 *
 * @param serviceId   which service (the spec's ServiceID)
 * @param messageType service-defined message type; the blueprint's payload type is
 *                    {@link #PAYLOAD_TYPE} and the Service Request message is {@link #SERVICE_REQUEST_TYPE}
 * @param messageId   identifies the message among all messages in flight in the overlay
 */
public record FsmExtension(int serviceId, byte messageType, long messageId) implements Extension {

    /** The blueprint's MessageType for a data message carrying payload (0x80). */
    public static final byte PAYLOAD_TYPE = (byte) 0x80;
    /** The blueprint's MessageType of a <em>Service Request message</em>. */
    public static final byte SERVICE_REQUEST_TYPE = (byte) -1;
    /** Encoded body size: 4 + 1 + 8 bytes. */
    public static final int BODY_BYTES = 13;

    @Override
    public int type() {
        return FSM;
    }
}
