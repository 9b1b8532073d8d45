package io.statecast.overlay.message;

import io.netty.buffer.ByteBuf;

/**
 * Encodes {@link WireMessage}s into and decodes them from Netty buffers. Stateless after
 * construction and safe to share between threads.
 */
public final class MessageCodec {

    /** Default largest frame accepted or produced, in bytes. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;

    private final int overlayHash;
    private final int maxMessageBytes;

    /**
     * @param overlayHash     hash of the overlay ID, written into and required of every frame
     * @param maxMessageBytes largest frame accepted or produced
     */
    public MessageCodec(int overlayHash, int maxMessageBytes) {
        this.overlayHash = overlayHash;
        this.maxMessageBytes = maxMessageBytes;
    }

    /** Writes one frame for {@code message} at {@code out}'s writer index. */
    public void encode(WireMessage message, ByteBuf out) {
        throw new UnsupportedOperationException("TODO");
    }

    /** Size in bytes of the frame {@link #encode} writes for {@code message}. */
    public int encodedSize(WireMessage message) {
        throw new UnsupportedOperationException("TODO");
    }

    /** Decodes exactly one frame: all readable bytes of {@code in}. */
    public WireMessage decode(ByteBuf in) throws DecodeException {
        throw new UnsupportedOperationException("TODO");
    }

    /** The overlay-ID hash this codec writes and requires. */
    public int overlayHash() {
        return overlayHash;
    }

    /** The largest frame accepted or produced. */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }
}
