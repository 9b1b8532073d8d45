package io.statecast.overlay.message;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The configured name of one overlay, and the 32-bit hash of it that every frame carries.
 *
 * <p>Several overlays may share a substrate (one UDP port, one multicast group). A frame names its
 * overlay by {@link #wireHash()} so that a node drops frames of other overlays before it parses
 * them ({@link DecodeException.Reason#FOREIGN_OVERLAY}). The hash is the first four bytes,
 * big-endian, of the SHA-256 digest of the ID's UTF-8 bytes: it depends on nothing but the string,
 * so every JVM, version and platform computes the same value (unlike {@link String#hashCode()},
 * whose algorithm is fixed too, but which collides for trivially related strings such as
 * {@code "Aa"} and {@code "BB"}).
 *
 * <p>The hash separates overlays by accident, not by intent: two IDs collide with probability
 * about 2<sup>-32</sup>, and anyone can forge it. It is not authentication.
 *
 * @param value the overlay ID as configured; not empty
 */
public record OverlayId(String value) {

    /** Requires a non-empty ID. */
    public OverlayId {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("overlay ID must not be empty");
        }
    }

    /** The hash written into every frame of this overlay (see {@link #wireHash(String)}). */
    public int wireHash() {
        return wireHash(value);
    }

    /**
     * The first four bytes, big-endian, of SHA-256 over the UTF-8 bytes of {@code overlayId}.
     *
     * @param overlayId the overlay ID
     * @return the value {@link MessageCodec} writes and requires in the overlay-ID hash field
     */
    public static int wireHash(String overlayId) {
        Objects.requireNonNull(overlayId, "overlayId");
        byte[] digest = sha256().digest(overlayId.getBytes(StandardCharsets.UTF_8));
        return (digest[0] & 0xFF) << 24 | (digest[1] & 0xFF) << 16 | (digest[2] & 0xFF) << 8 | (digest[3] & 0xFF);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java SE platform is required to provide SHA-256.
            throw new IllegalStateException("SHA-256 unavailable in this JVM", e);
        }
    }
}
