package io.statecast.overlay.message;

/**
 * The one checked exception {@link MessageCodec} throws for bytes that are not a valid message.
 * Carries the cause as a {@link Reason} (for counting drops by cause) and the byte offset, from
 * the start of the frame, where decoding stopped.
 */
public final class DecodeException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Why a frame was refused. */
    public enum Reason {
        /** The frame ended before a field did. */
        TRUNCATED,
        /** The frame or a length field exceeds the configured maximum. */
        TOO_LARGE,
        /** The first byte is not the Statecast magic: not our traffic. */
        BAD_MAGIC,
        /** A protocol version this node does not speak. */
        BAD_VERSION,
        /** The frame kind is neither application nor protocol. */
        UNKNOWN_KIND,
        /** The frame belongs to another overlay (overlay-ID hash differs). */
        FOREIGN_OVERLAY,
        /** A field holds a value outside its range (delivery mode, address family, flags, …). */
        BAD_FIELD,
        /** The extension chain is malformed (duplicate, too many, or unterminated). */
        BAD_EXTENSION,
        /** Bytes remain after a complete message. */
        TRAILING_BYTES
    }

    private final Reason reason;
    private final int offset;

    /**
     * @param reason the cause
     * @param offset byte offset from the start of the frame
     * @param detail what exactly was wrong
     */
    public DecodeException(Reason reason, int offset, String detail) {
        super(reason + " at offset " + offset + ": " + detail, null, false, false);
        this.reason = reason;
        this.offset = offset;
    }

    /** The cause, for counting drops. */
    public Reason reason() {
        return reason;
    }

    /** Byte offset from the start of the frame. */
    public int offset() {
        return offset;
    }
}
