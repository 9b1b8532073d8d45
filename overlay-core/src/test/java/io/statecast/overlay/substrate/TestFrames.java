package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * Self-checking test payloads: {@code seq (8) | filler | crc32 of everything before (4)}, so a
 * receiver can tell the sequence number and whether the bytes arrived intact.
 */
final class TestFrames {

    /** Smallest payload: sequence number and checksum. */
    static final int MIN_BYTES = 12;

    private TestFrames() {
    }

    /** A payload of {@code size} bytes for {@code seq}, filler drawn from {@code random}. */
    static byte[] payload(long seq, int size, SplittableRandom random) {
        if (size < MIN_BYTES) {
            throw new IllegalArgumentException("size " + size + " < " + MIN_BYTES);
        }
        byte[] b = new byte[size];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (seq >>> (56 - 8 * i));
        }
        for (int i = 8; i < size - 4; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        CRC32 crc = new CRC32();
        crc.update(b, 0, size - 4);
        int c = (int) crc.getValue();
        b[size - 4] = (byte) (c >>> 24);
        b[size - 3] = (byte) (c >>> 16);
        b[size - 2] = (byte) (c >>> 8);
        b[size - 1] = (byte) c;
        return b;
    }

    /** The payload as an unpooled buffer. */
    static ByteBuf frame(long seq, int size, SplittableRandom random) {
        return Unpooled.wrappedBuffer(payload(seq, size, random));
    }

    /** The sequence number of a payload, or -1 if it is too short or its checksum is wrong. */
    static long check(byte[] b) {
        if (b.length < MIN_BYTES) {
            return -1;
        }
        CRC32 crc = new CRC32();
        crc.update(b, 0, b.length - 4);
        int c = (int) crc.getValue();
        int got = ((b[b.length - 4] & 0xff) << 24) | ((b[b.length - 3] & 0xff) << 16)
                | ((b[b.length - 2] & 0xff) << 8) | (b[b.length - 1] & 0xff);
        if (c != got) {
            return -1;
        }
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            seq = (seq << 8) | (b[i] & 0xff);
        }
        return seq;
    }

    /** {@link #check(byte[])} on a buffer's readable bytes (not consumed, not released). */
    static long check(ByteBuf frame) {
        byte[] b = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), b);
        return check(b);
    }
}
