package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.message.DecodeException;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.WireMessage;

/**
 * What the adapter needs of a codec. Production code always passes a {@link MessageCodec}
 * (see {@link #of}); the seam exists so that the adapter's own behaviour (dispatch, drop counting,
 * isolation from listener failures) can be tested with a stand-in codec.
 */
interface FrameCodec {

    /** Largest frame accepted or produced. */
    int maxFrameBytes();

    /** Size of the frame {@link #encode} writes. */
    int encodedSize(WireMessage message);

    /** Writes one frame at {@code out}'s writer index. */
    void encode(WireMessage message, ByteBuf out);

    /** Decodes all readable bytes of {@code frame} as one message. */
    WireMessage decode(ByteBuf frame) throws DecodeException;

    /**
     * Whether {@code frame} looks like a protocol (overlay control) frame, judged from its header
     * alone without decoding; a malformed frame is not one. Must not move the reader index.
     */
    boolean isControlFrame(ByteBuf frame);

    /**
     * Frames up to this size are control-sized: protocol messages and a service's control messages
     * (an FSM extension and no payload, ≈ 60–80 bytes: ACKs, NACKs, requests). They decide whether
     * neighbours stay adjacent and whether data already sent is acknowledged, so the receive path
     * ranks them ahead of data and the UDP send queue keeps a reserve for them: losing them under
     * overload turns every lost ACK into an ACK Request, a NACK and a retransmission, and every
     * lost heartbeat into a lost neighbour.
     */
    int SMALL_FRAME_BYTES = 256;

    /** The codec the adapter uses in production. */
    static FrameCodec of(MessageCodec codec) {
        return new FrameCodec() {
            @Override
            public int maxFrameBytes() {
                return codec.maxMessageBytes();
            }

            @Override
            public int encodedSize(WireMessage message) {
                return codec.encodedSize(message);
            }

            @Override
            public void encode(WireMessage message, ByteBuf out) {
                codec.encode(message, out);
            }

            @Override
            public WireMessage decode(ByteBuf frame) throws DecodeException {
                return codec.decode(frame);
            }

            @Override
            public boolean isControlFrame(ByteBuf frame) {
                // The common header starts magic, version, kind (MessageCodec.COMMON_HEADER_BYTES).
                int at = frame.readerIndex();
                return frame.readableBytes() >= MessageCodec.COMMON_HEADER_BYTES
                        && frame.getUnsignedByte(at) == MessageCodec.MAGIC
                        && frame.getUnsignedByte(at + 2) == MessageCodec.KIND_PROTOCOL;
            }

            @Override
            public String toString() {
                return "MessageCodec[overlayHash=" + codec.overlayHash() + ", max=" + codec.maxMessageBytes() + "]";
            }
        };
    }
}
