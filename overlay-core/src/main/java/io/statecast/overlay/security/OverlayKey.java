package io.statecast.overlay.security;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One overlay key: the id that frames sealed with it carry, and the key that authenticates them.
 * The MAC key is derived from the secret ({@code HMAC-SHA256(secret, "statecast frame mac v1")}),
 * and the AES-256 key of {@code mode: aead} from it with another label
 * ({@code "statecast frame aead v1"}), so the two uses never share a key.
 *
 * <p>Immutable; {@link #toString()} shows the id only.
 */
public final class OverlayKey {

    /** Fewest secret bytes accepted: 256 bits. */
    public static final int MIN_SECRET_BYTES = 32;
    /** Most secret bytes accepted (an HMAC-SHA256 key longer than a block is hashed anyway). */
    public static final int MAX_SECRET_BYTES = 64;
    /** The MAC algorithm (JDK provider). */
    static final String MAC_ALGORITHM = "HmacSHA256";

    /** The payload cipher (JDK provider), for {@code mode: aead}. */
    static final String AEAD_ALGORITHM = "AES/GCM/NoPadding";

    private static final byte[] MAC_LABEL = "statecast frame mac v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] AEAD_LABEL = "statecast frame aead v1".getBytes(StandardCharsets.US_ASCII);

    private final int id;
    private final SecretKeySpec macKey;
    private final SecretKeySpec aeadKey;

    /**
     * @param id     the key id, 0..255
     * @param secret the shared secret, {@value #MIN_SECRET_BYTES}..{@value #MAX_SECRET_BYTES} bytes (copied)
     * @throws IllegalArgumentException if either is out of range
     */
    public OverlayKey(int id, byte[] secret) {
        if (id < 0 || id > 255) {
            throw new IllegalArgumentException("key id " + id + " must be within 0..255");
        }
        if (secret.length < MIN_SECRET_BYTES || secret.length > MAX_SECRET_BYTES) {
            throw new IllegalArgumentException("key " + id + " has " + secret.length + " bytes; must be "
                    + MIN_SECRET_BYTES + ".." + MAX_SECRET_BYTES);
        }
        this.id = id;
        this.macKey = new SecretKeySpec(derive(secret, MAC_LABEL), MAC_ALGORITHM);
        this.aeadKey = new SecretKeySpec(derive(secret, AEAD_LABEL), "AES"); // 32 bytes: AES-256
    }

    private static byte[] derive(byte[] secret, byte[] label) {
        try {
            Mac mac = Mac.getInstance(MAC_ALGORITHM);
            mac.init(new SecretKeySpec(secret, MAC_ALGORITHM));
            return mac.doFinal(label);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("the JDK lacks " + MAC_ALGORITHM, e);
        }
    }

    /** The key id frames sealed with this key carry. */
    public int id() {
        return id;
    }

    /** A new MAC instance keyed with this key (one per thread: {@link Mac} is not thread-safe). */
    Mac newMac() {
        try {
            Mac mac = Mac.getInstance(MAC_ALGORITHM);
            mac.init(macKey);
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("the JDK lacks " + MAC_ALGORITHM, e);
        }
    }

    /** The AES key of {@code mode: aead}. */
    SecretKeySpec aeadKey() {
        return aeadKey;
    }

    /** Whether {@code other} has the same id and the same key. */
    boolean sameAs(OverlayKey other) {
        return id == other.id && Arrays.equals(macKey.getEncoded(), other.macKey.getEncoded());
    }

    @Override
    public String toString() {
        return "OverlayKey[id=" + id + "]";
    }
}
