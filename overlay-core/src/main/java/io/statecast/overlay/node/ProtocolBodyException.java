package io.statecast.overlay.node;

/**
 * The one checked exception of the overlay protocols' body decoders (the DT and the tree
 * protocol's): the body of a protocol message is not a valid message of that protocol. The node
 * drops such a message and counts it by {@link #reason()} ({@link NodeCounters#countMalformed}).
 */
public final class ProtocolBodyException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Why a body was refused. */
    public enum Reason {
        /** The protocol-message type is not one of the protocol's. */
        UNKNOWN_TYPE,
        /** The body ended before a field did. */
        TRUNCATED,
        /** A body version this node does not speak. */
        BAD_VERSION,
        /** Flag bits that are undefined, or contradict each other. */
        BAD_FLAGS,
        /** A substrate address that is empty, not printable ASCII, or not a valid address. */
        BAD_ADDRESS,
        /** A count outside its bounds. */
        TOO_MANY,
        /** Bytes remain after a complete body. */
        TRAILING_BYTES
    }

    private final Reason reason;

    /**
     * @param reason the cause
     * @param detail what exactly was wrong, with the offset
     */
    public ProtocolBodyException(Reason reason, String detail) {
        super(reason + ": " + detail, null, false, false);
        this.reason = reason;
    }

    /** The cause, for counting. */
    public Reason reason() {
        return reason;
    }
}
