package io.statecast.messagestore.deploy;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a node downloads the specs of services it does not know: {@code GET {uri}/services/{id}}
 * of a spec server ({@code docs/spec-server.md}).
 *
 * @param uri     the server's base URI, {@code http} or {@code https} with a host
 * @param timeout connect and total time of one download; default {@link #DEFAULT_TIMEOUT}
 */
public record SpecServerSettings(URI uri, Duration timeout) {

    /** Default {@link #timeout}: 5 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /** Checks the values. */
    public SpecServerSettings {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(timeout, "timeout");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new IllegalArgumentException(uri + " is not an http or https URI with a host");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(uri + " must have no query or fragment");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    /** The URI of service {@code serviceId}'s spec: {@code {uri}/services/{id}} (ids are 0..2^31-1). */
    public URI serviceUri(int serviceId) {
        String base = uri.toString();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + "/services/" + serviceId);
    }
}
