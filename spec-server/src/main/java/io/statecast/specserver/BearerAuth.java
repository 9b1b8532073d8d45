package io.statecast.specserver;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * Checks {@code Authorization: Bearer <token>} against the configured token in time independent of
 * where the two differ: both sides are hashed to a fixed length and compared with
 * {@link MessageDigest#isEqual}, so neither the content nor the length of the token leaks.
 */
final class BearerAuth {

    private static final String SCHEME = "bearer ";

    private final Optional<byte[]> expectedHash;

    /** @param token the token, or empty for an insecure server that authorizes everyone */
    BearerAuth(Optional<String> token) {
        this.expectedHash = token.map(BearerAuth::hash);
    }

    /**
     * Who an authorized write is recorded as in the audit log: {@code token:} and the first 8 hex
     * digits of the token's SHA-256 (names the token without revealing it; changes when it is
     * replaced), or {@code anonymous} on an insecure server.
     */
    String identity() {
        return expectedHash.map(h -> "token:" + java.util.HexFormat.of().formatHex(h, 0, 4)).orElse("anonymous");
    }

    /**
     * @param authorization the {@code Authorization} header value, or null
     * @return whether a write may proceed
     */
    boolean authorized(String authorization) {
        if (expectedHash.isEmpty()) {
            return true;
        }
        // without a bearer token there is nothing to compare; that a request carries none is no secret
        return presentedToken(authorization)
                .map(t -> MessageDigest.isEqual(expectedHash.get(), hash(t)))
                .orElse(false);
    }

    /** The token of a {@code Bearer} header; empty when the header is absent, of another scheme or blank. */
    private static Optional<String> presentedToken(String authorization) {
        if (authorization == null || authorization.length() <= SCHEME.length()
                || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        String token = authorization.substring(SCHEME.length()).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }

    private static byte[] hash(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
