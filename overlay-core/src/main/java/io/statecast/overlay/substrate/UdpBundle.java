package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * Several small frames for one destination in one datagram. A hop-by-hop service acknowledges
 * every message with a frame of a few dozen bytes; sent one datagram each, the acknowledgements
 * cost a {@code sendto} at one end and a wake-up and {@code recvfrom} at the other, per message —
 * at saturation a quarter of a receiving node's I/O thread. Frames that wait in the interface's
 * outbox together are packed instead.
 *
 * <p>Layout: {@link #MAGIC}, {@link #VERSION}, then per frame a 16-bit big-endian length and the
 * frame, up to the datagram's end; two frames at least, {@link #MAX_FRAMES} at most. The magic
 * differs from every frame's first byte ({@code MessageCodec.MAGIC}), so a datagram that does not
 * start with it is one frame, as before.
 */
final class UdpBundle {

    /** First byte of a bundle. */
    static final int MAGIC = 0x5B;
    /** The layout version this interface writes and accepts. */
    static final int VERSION = 1;
    /** Magic and version. */
    static final int HEADER_BYTES = 2;
    /** Length prefix of each frame. */
    static final int LENGTH_BYTES = 2;
    /** Most frames one bundle may carry: bounds the work one datagram can cause. */
    static final int MAX_FRAMES = 64;

    private UdpBundle() {
    }

    /** Whether {@code datagram} (its readable bytes) is a bundle rather than one frame. */
    static boolean isBundle(ByteBuf datagram) {
        return datagram.readableBytes() >= 1 && datagram.getUnsignedByte(datagram.readerIndex()) == MAGIC;
    }

    /**
     * The frames of a bundle, each copied into its own buffer (the caller releases
     * {@code datagram}); {@code null}, with nothing allocated, when the bundle is malformed: another
     * version, a length of 0 or past the end, a partial length at the end, fewer than two frames or
     * more than {@link #MAX_FRAMES}.
     */
    static List<ByteBuf> split(ByteBuf datagram, ByteBufAllocator alloc) {
        int at = datagram.readerIndex();
        int end = datagram.writerIndex();
        if (end - at < HEADER_BYTES || datagram.getUnsignedByte(at) != MAGIC
                || datagram.getUnsignedByte(at + 1) != VERSION) {
            return null;
        }
        // check the whole layout before copying anything
        int frames = 0;
        for (int p = at + HEADER_BYTES; p < end; frames++) {
            if (frames == MAX_FRAMES || end - p < LENGTH_BYTES) {
                return null;
            }
            int len = datagram.getUnsignedShort(p);
            p += LENGTH_BYTES;
            if (len == 0 || len > end - p) {
                return null;
            }
            p += len;
        }
        if (frames < 2) {
            return null;
        }
        List<ByteBuf> out = new ArrayList<>(frames);
        for (int p = at + HEADER_BYTES; p < end;) {
            int len = datagram.getUnsignedShort(p);
            p += LENGTH_BYTES;
            ByteBuf f = alloc.buffer(len, len);
            f.writeBytes(datagram, p, len);
            out.add(f);
            p += len;
        }
        return out;
    }

    /** Bytes a bundle of frames totalling {@code frameBytes} in {@code frames} frames takes. */
    static int size(int frames, int frameBytes) {
        return HEADER_BYTES + frames * LENGTH_BYTES + frameBytes;
    }
}
