package io.statecast.overlay.node.tree;

/**
 * The one checked exception of the spanning-tree protocol's body decoder: the body of a protocol
 * message is not a valid tree message. The node drops such a message and counts it by
 * {@link #reason()}.
 */
public final class TreeProtocolException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Why a body was refused. */
    public enum Reason {
        /** The protocol-message type is not one of the tree protocol's. */
        UNKNOWN_TYPE,
        /** The body ended before a field did. */
        TRUNCATED,
        /** A body version this node does not speak. */
        BAD_VERSION,
        /** Flag bits that are undefined, or contradict each other. */
        BAD_FLAGS,
        /** An advertised substrate address is not valid. */
        BAD_ADDRESS,
        /** A count exceeds its bound. */
        TOO_MANY,
        /** Bytes remain after a complete body. */
        TRAILING_BYTES
    }

    private final Reason reason;

    /**
     * @param reason the cause
     * @param detail what exactly was wrong, with the offset
     */
    public TreeProtocolException(Reason reason, String detail) {
        super(reason + ": " + detail, null, false, false);
        this.reason = reason;
    }

    /** The cause, for counting. */
    public Reason reason() {
        return reason;
    }
}
