package io.statecast.messagestore.event;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The payload operations specs call as {@code payload:…} functions ({@link PayloadFunctions}):
 * XOR for FEC parity, length, digest. Pure and bounded: every input and result is at most
 * {@link #MAX_BYTES}.
 *
 * <p>XOR keeps lengths through the <em>parity form</em> of a payload: its length as two bytes,
 * big-endian, then the payload. The XOR of parity forms (shorter ones padded with zeros) is a
 * parity block whose first two bytes are the XOR of the lengths; XOR-ing the parity forms of all
 * but one of its payloads back into it leaves the parity form of the missing one, and
 * {@link #recover} reads its length and returns exactly its bytes.
 */
public final class PayloadOps {

    /**
     * Largest input or result, in bytes: the parity form's two-byte length holds 65,535, above
     * any payload the default frame (64 KiB) carries.
     */
    public static final int MAX_BYTES = 65_535;
    /** Most payloads one {@link #xorParity} call combines (a parity group is far smaller). */
    public static final int MAX_XOR_ITEMS = 256;
    /** Bytes of a SHA-256 digest. */
    public static final int SHA256_BYTES = 32;

    private PayloadOps() {
    }

    /**
     * {@code a} XOR {@code b}, the shorter padded with zeros: as long as the longer.
     *
     * @throws IllegalArgumentException if an input exceeds {@link #MAX_BYTES}
     */
    public static byte[] xor(byte[] a, byte[] b) {
        check(a, "first operand");
        check(b, "second operand");
        byte[] longer = a.length >= b.length ? a : b;
        byte[] shorter = longer == a ? b : a;
        byte[] out = longer.clone();
        for (int i = 0; i < shorter.length; i++) {
            out[i] ^= shorter[i];
        }
        return out;
    }

    /**
     * The parity form of {@code payload}: its length in two bytes (big-endian), then its bytes.
     *
     * @throws IllegalArgumentException if the result would exceed {@link #MAX_BYTES}
     */
    public static byte[] parity(byte[] payload) {
        if (payload.length > MAX_BYTES - 2) {
            throw new IllegalArgumentException("payload of " + payload.length + " bytes > " + (MAX_BYTES - 2)
                    + " (MAX_BYTES=" + MAX_BYTES + " less the 2-byte length)");
        }
        byte[] out = new byte[payload.length + 2];
        out[0] = (byte) (payload.length >>> 8);
        out[1] = (byte) payload.length;
        System.arraycopy(payload, 0, out, 2, payload.length);
        return out;
    }

    /**
     * The XOR of the parity forms of {@code payloads} (empty for none): the repair of a parity
     * group of any size in one call, where XPath without function items has no fold.
     *
     * @throws IllegalArgumentException if there are more than {@link #MAX_XOR_ITEMS} payloads or one is too long
     */
    public static byte[] xorParity(java.util.List<byte[]> payloads) {
        if (payloads.size() > MAX_XOR_ITEMS) {
            throw new IllegalArgumentException(payloads.size() + " payloads > MAX_XOR_ITEMS=" + MAX_XOR_ITEMS);
        }
        int longest = 0;
        for (byte[] p : payloads) {
            if (p.length > MAX_BYTES - 2) {
                throw new IllegalArgumentException("payload of " + p.length + " bytes > " + (MAX_BYTES - 2)
                        + " (MAX_BYTES=" + MAX_BYTES + " less the 2-byte length)");
            }
            longest = Math.max(longest, p.length);
        }
        byte[] out = new byte[payloads.isEmpty() ? 0 : longest + 2];
        for (byte[] p : payloads) {
            out[0] ^= (byte) (p.length >>> 8);
            out[1] ^= (byte) p.length;
            for (int i = 0; i < p.length; i++) {
                out[i + 2] ^= p[i];
            }
        }
        return out;
    }

    /**
     * The payload a parity form holds: the length its first two bytes give, taken from the bytes
     * after them (zeros beyond them are the padding of longer payloads).
     *
     * @throws IllegalArgumentException if {@code parity} is shorter than two bytes or than the length it states
     */
    public static byte[] recover(byte[] parity) {
        check(parity, "parity block");
        if (parity.length < 2) {
            throw new IllegalArgumentException("a parity block has at least 2 bytes, got " + parity.length);
        }
        int length = (parity[0] & 0xFF) << 8 | (parity[1] & 0xFF);
        if (length > parity.length - 2) {
            throw new IllegalArgumentException("parity block states " + length + " bytes but holds " + (parity.length - 2)
                    + " (not the parity of one payload)");
        }
        return Arrays.copyOfRange(parity, 2, 2 + length);
    }

    /**
     * The first {@code bytes} bytes of the SHA-256 digest of {@code data}.
     *
     * @throws IllegalArgumentException if {@code bytes} is not 1..32 or the input exceeds {@link #MAX_BYTES}
     */
    public static byte[] sha256(byte[] data, int bytes) {
        check(data, "input");
        if (bytes < 1 || bytes > SHA256_BYTES) {
            throw new IllegalArgumentException("digest length " + bytes + " outside 1.." + SHA256_BYTES);
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(data);
            return bytes == SHA256_BYTES ? d : Arrays.copyOf(d, bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static void check(byte[] b, String what) {
        if (b.length > MAX_BYTES) {
            throw new IllegalArgumentException(what + " of " + b.length + " bytes > MAX_BYTES=" + MAX_BYTES);
        }
    }
}
