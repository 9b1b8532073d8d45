package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DecodeException;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.message.WireMessage;
import java.util.List;

/**
 * A minimal codec for testing the adapter until the real {@code MessageCodec} is merged. It is
 * NOT the wire format: it handles protocol messages and application messages whose only extension
 * is a payload, and refuses anything else.
 *
 * <pre>
 * protocol:    0x5C 2 type body...
 * application: 0x5C 1 mode hop family src(8) hasDst dst(8)? prev(8) payloadLen(4) payload
 * </pre>
 *
 * Decoding fails with BAD_MAGIC, UNKNOWN_KIND, TRUNCATED, BAD_FIELD, TRAILING_BYTES or TOO_LARGE,
 * and with a RuntimeException for the kind byte 0x7F (to test the adapter's handling of a codec bug).
 */
final class StandInCodec implements FrameCodec {

    static final int MAGIC = 0x5C;
    static final int KIND_APPLICATION = 1;
    static final int KIND_PROTOCOL = 2;
    static final int KIND_BOOM = 0x7F;

    private final int max;

    StandInCodec(int maxFrameBytes) {
        this.max = maxFrameBytes;
    }

    @Override
    public int maxFrameBytes() {
        return max;
    }

    @Override
    public int encodedSize(WireMessage message) {
        if (message instanceof ProtocolMessage p) {
            return 3 + p.body().length;
        }
        OverlayMessage m = (OverlayMessage) message;
        byte[] payload = payloadOnly(m);
        return 5 + 8 + 1 + (m.destination() == null ? 0 : 8) + 8 + 4 + payload.length;
    }

    private static byte[] payloadOnly(OverlayMessage m) {
        for (Extension e : m.extensions()) {
            if (!(e instanceof PayloadExtension)) {
                throw new IllegalArgumentException("the stand-in codec encodes payload extensions only, not " + e);
            }
        }
        byte[] p = m.payload();
        return p == null ? new byte[0] : p;
    }

    @Override
    public void encode(WireMessage message, ByteBuf out) {
        if (message instanceof ProtocolMessage p) {
            out.writeByte(MAGIC).writeByte(KIND_PROTOCOL).writeByte(p.type()).writeBytes(p.body());
            return;
        }
        OverlayMessage m = (OverlayMessage) message;
        byte[] payload = payloadOnly(m);
        out.writeByte(MAGIC).writeByte(KIND_APPLICATION).writeByte(m.mode().code()).writeByte(m.hopLimit())
                .writeByte(m.source().family().code()).writeLong(m.source().toBits());
        out.writeByte(m.destination() == null ? 0 : 1);
        if (m.destination() != null) {
            out.writeLong(m.destination().toBits());
        }
        out.writeLong(m.previousHop().toBits()).writeInt(payload.length).writeBytes(payload);
    }

    @Override
    public boolean isControlFrame(ByteBuf frame) {
        int at = frame.readerIndex();
        return frame.readableBytes() >= 2 && frame.getUnsignedByte(at) == MAGIC
                && frame.getUnsignedByte(at + 1) == KIND_PROTOCOL;
    }

    @Override
    public WireMessage decode(ByteBuf in) throws DecodeException {
        int start = in.readerIndex();
        if (in.readableBytes() > max) {
            throw new DecodeException(DecodeException.Reason.TOO_LARGE, 0, "frame larger than " + max);
        }
        need(in, start, 2);
        if (in.readUnsignedByte() != MAGIC) {
            throw new DecodeException(DecodeException.Reason.BAD_MAGIC, 0, "not 0x5C");
        }
        int kind = in.readUnsignedByte();
        if (kind == KIND_BOOM) {
            throw new IllegalStateException("stand-in codec bug on purpose");
        }
        if (kind == KIND_PROTOCOL) {
            need(in, start, 1);
            int type = in.readUnsignedByte();
            byte[] body = new byte[in.readableBytes()];
            in.readBytes(body);
            return new ProtocolMessage(type, body);
        }
        if (kind != KIND_APPLICATION) {
            throw new DecodeException(DecodeException.Reason.UNKNOWN_KIND, 1, "kind " + kind);
        }
        need(in, start, 3 + 8 + 1);
        DeliveryMode mode = DeliveryMode.ofCode(in.readUnsignedByte());
        int hop = in.readUnsignedByte();
        LogicalAddress.Family family = LogicalAddress.Family.ofCode(in.readUnsignedByte());
        if (mode == null || family == null) {
            throw new DecodeException(DecodeException.Reason.BAD_FIELD, in.readerIndex() - start, "mode or family");
        }
        LogicalAddress src = LogicalAddress.fromBits(family, in.readLong());
        LogicalAddress dst = null;
        if (in.readUnsignedByte() != 0) {
            need(in, start, 8);
            dst = LogicalAddress.fromBits(family, in.readLong());
        }
        need(in, start, 12);
        LogicalAddress prev = LogicalAddress.fromBits(family, in.readLong());
        int len = in.readInt();
        if (len < 0 || len > in.readableBytes()) {
            throw new DecodeException(DecodeException.Reason.TRUNCATED, in.readerIndex() - start, "payload length " + len);
        }
        byte[] payload = new byte[len];
        in.readBytes(payload);
        if (in.isReadable()) {
            throw new DecodeException(DecodeException.Reason.TRAILING_BYTES, in.readerIndex() - start, in.readableBytes() + " bytes");
        }
        try {
            return new OverlayMessage(mode, hop, src, dst, prev, null, List.of(new PayloadExtension(payload)));
        } catch (IllegalArgumentException e) {
            throw new DecodeException(DecodeException.Reason.BAD_FIELD, 0, e.getMessage());
        }
    }

    private static void need(ByteBuf in, int start, int n) throws DecodeException {
        if (in.readableBytes() < n) {
            throw new DecodeException(DecodeException.Reason.TRUNCATED, in.readerIndex() - start, "need " + n + " more bytes");
        }
    }
}
