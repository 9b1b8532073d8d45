package io.statecast.overlay.socket;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The overlay-ID hash every frame carries: the first four bytes, big-endian, of SHA-256 of the ID's UTF-8 bytes. */
final class OverlayIds {

    private OverlayIds() {
    }

    static int wireHash(String overlayId) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(overlayId.getBytes(StandardCharsets.UTF_8));
            return (d[0] & 0xFF) << 24 | (d[1] & 0xFF) << 16 | (d[2] & 0xFF) << 8 | (d[3] & 0xFF);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
