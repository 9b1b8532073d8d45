package io.statecast.specserver;

import io.statecast.messagestore.deploy.SpecSignatures;
import io.statecast.messagestore.deploy.TrustedKeys;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How to run a {@link SpecServer}.
 *
 * <p>Writes ({@code PUT}, {@code DELETE}) need {@code Authorization: Bearer <token>}. A server
 * must be given a token or be declared {@code insecure} explicitly (writes then need nothing, for
 * a closed test network only); neither is refused at construction, both together too.
 *
 * @param bindAddress address to listen on; default {@value #DEFAULT_BIND_ADDRESS} (loopback:
 *     listening on other interfaces is an explicit choice)
 * @param port TCP port; 0 picks an ephemeral port (see {@link SpecServer#address()})
 * @param directory where specs are stored; created if absent
 * @param token the bearer token writes must present, or empty; at least
 *     {@value #MIN_TOKEN_CHARS} visible ASCII characters, no spaces
 * @param insecure accept writes without a token
 * @param limits bounds on requests, connections and storage; {@link SpecServerLimits#DEFAULTS}
 * @param trustedKeys when present, uploads and restores must be specs signed by one of these keys
 *     ({@link SpecSignatures}); others are refused with 403 and nothing stored changes
 * @param tls when present, the server speaks HTTPS only, with this certificate and key
 */
public record SpecServerConfig(
        String bindAddress,
        int port,
        Path directory,
        Optional<String> token,
        boolean insecure,
        SpecServerLimits limits,
        Optional<TrustedKeys> trustedKeys,
        Optional<Tls> tls) {

    /**
     * The server's TLS identity, PEM files as OpenSSL and ACME clients write them.
     *
     * @param certificateChain the certificate, then any intermediate CA certificates
     *     ({@code -----BEGIN CERTIFICATE-----})
     * @param privateKey its private key, unencrypted PKCS#8 ({@code -----BEGIN PRIVATE KEY-----}); RSA or EC
     */
    public record Tls(Path certificateChain, Path privateKey) {
        /** Checks for nulls. */
        public Tls {
            Objects.requireNonNull(certificateChain, "certificateChain");
            Objects.requireNonNull(privateKey, "privateKey");
        }
    }

    /** A server without signature checks and without TLS. */
    public SpecServerConfig(String bindAddress, int port, Path directory, Optional<String> token, boolean insecure,
            SpecServerLimits limits) {
        this(bindAddress, port, directory, token, insecure, limits, Optional.empty(), Optional.empty());
    }

    /** Default {@link #bindAddress}. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    /** Shortest accepted token: guessing it must be impractical. */
    public static final int MIN_TOKEN_CHARS = 16;
    /** Longest accepted token. */
    public static final int MAX_TOKEN_CHARS = 1024;

    /** Checks the combination of token and insecure, and the token's form. */
    public SpecServerConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(trustedKeys, "trustedKeys");
        Objects.requireNonNull(tls, "tls");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port=" + port + " is outside [0, 65535]");
        }
        if (token.isEmpty() && !insecure) {
            throw new IllegalArgumentException(
                    "no token: writes would be open to anyone; give a token (--token-file) or declare the server insecure (--insecure)");
        }
        if (token.isPresent() && insecure) {
            throw new IllegalArgumentException("a token and insecure are mutually exclusive: insecure would ignore the token");
        }
        token.ifPresent(SpecServerConfig::checkToken);
    }

    private static void checkToken(String t) {
        if (t.length() < MIN_TOKEN_CHARS || t.length() > MAX_TOKEN_CHARS) {
            throw new IllegalArgumentException("token has " + t.length() + " characters; it needs between "
                    + MIN_TOKEN_CHARS + " and " + MAX_TOKEN_CHARS);
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                throw new IllegalArgumentException("token character " + i + " is not visible ASCII (no spaces or control characters)");
            }
        }
    }

    /**
     * A server on loopback, ephemeral port, default limits, requiring {@code token} for writes.
     *
     * @param directory storage directory
     * @param token bearer token
     * @return the configuration
     */
    public static SpecServerConfig secured(Path directory, String token) {
        return new SpecServerConfig(DEFAULT_BIND_ADDRESS, 0, directory, Optional.of(token), false, SpecServerLimits.DEFAULTS);
    }

    /**
     * A server on loopback, ephemeral port, default limits, accepting writes from anyone.
     *
     * @param directory storage directory
     * @return the configuration
     */
    public static SpecServerConfig insecure(Path directory) {
        return new SpecServerConfig(DEFAULT_BIND_ADDRESS, 0, directory, Optional.empty(), true, SpecServerLimits.DEFAULTS);
    }

    /** @param value new {@link #port} @return a copy with it */
    public SpecServerConfig withPort(int value) {
        return new SpecServerConfig(bindAddress, value, directory, token, insecure, limits, trustedKeys, tls);
    }

    /** @param value new {@link #bindAddress} @return a copy with it */
    public SpecServerConfig withBindAddress(String value) {
        return new SpecServerConfig(value, port, directory, token, insecure, limits, trustedKeys, tls);
    }

    /** @param value new {@link #limits} @return a copy with them */
    public SpecServerConfig withLimits(SpecServerLimits value) {
        return new SpecServerConfig(bindAddress, port, directory, token, insecure, value, trustedKeys, tls);
    }

    /** @param value the keys uploads must be signed by @return a copy requiring them */
    public SpecServerConfig withTrustedKeys(TrustedKeys value) {
        return new SpecServerConfig(bindAddress, port, directory, token, insecure, limits, Optional.of(value), tls);
    }

    /** @param value the TLS identity @return a copy serving HTTPS with it */
    public SpecServerConfig withTls(Tls value) {
        return new SpecServerConfig(bindAddress, port, directory, token, insecure, limits, trustedKeys, Optional.of(value));
    }

    /** Never prints the token. */
    @Override
    public String toString() {
        return "SpecServerConfig[bindAddress=" + bindAddress + ", port=" + port + ", directory=" + directory
                + ", token=" + (token.isPresent() ? "(set)" : "(none)") + ", insecure=" + insecure + ", limits=" + limits + ", trustedKeys=" + trustedKeys.map(Object::toString).orElse("(none)")
                + ", tls=" + tls.map(Object::toString).orElse("(none)") + "]";
    }
}
