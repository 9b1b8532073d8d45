package io.statecast.examples.node;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Test payloads whose integrity a receiver can check on its own:
 *
 * <pre>
 *   0        8                        size-8      size
 *   +--------+------------------------+-----------+
 *   | seq    | filler (seeded by seq) | SHA-256[0..8) of bytes [0, size-8) |
 *   +--------+------------------------+-----------+
 * </pre>
 *
 * The sequence number is big-endian; the filler is pseudo-random so that a corrupted or truncated
 * payload does not pass by luck.
 */
public final class CheckedPayload {

    /** Smallest payload: a sequence number and a digest prefix. */
    public static final int MIN_BYTES = 16;
    private static final int DIGEST_BYTES = 8;

    private CheckedPayload() {
    }

    /**
     * A payload of {@code size} bytes carrying {@code seq}.
     *
     * @throws IllegalArgumentException if {@code size < MIN_BYTES} or {@code seq < 0}
     */
    public static byte[] create(long seq, int size) {
        if (size < MIN_BYTES) {
            throw new IllegalArgumentException("payload size " + size + " < " + MIN_BYTES);
        }
        if (seq < 0) {
            throw new IllegalArgumentException("negative sequence number " + seq);
        }
        byte[] b = new byte[size];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (seq >>> (56 - 8 * i));
        }
        SplittableRandom filler = new SplittableRandom(seq * 0x9E37_79B9_7F4A_7C15L);
        for (int i = 8; i < size - DIGEST_BYTES; i++) {
            b[i] = (byte) filler.nextInt(256);
        }
        byte[] d = digest(b, size - DIGEST_BYTES);
        System.arraycopy(d, 0, b, size - DIGEST_BYTES, DIGEST_BYTES);
        return b;
    }

    /** The sequence number of an intact payload, or -1 for a missing, short or corrupt one. */
    public static long check(byte[] b) {
        if (b == null || b.length < MIN_BYTES) {
            return -1;
        }
        byte[] d = digest(b, b.length - DIGEST_BYTES);
        if (!MessageDigest.isEqual(Arrays.copyOf(d, DIGEST_BYTES),
                Arrays.copyOfRange(b, b.length - DIGEST_BYTES, b.length))) {
            return -1;
        }
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            seq = (seq << 8) | (b[i] & 0xff);
        }
        return seq < 0 ? -1 : seq;
    }

    private static byte[] digest(byte[] b, int length) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(b, 0, length);
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
