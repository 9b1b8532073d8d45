package io.statecast.messagestore.deploy;

import io.statecast.messagestore.deploy.http.HttpStatusException;
import io.statecast.messagestore.deploy.http.SpecHttpClient;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * Reads {@code http:} or {@code https:} URIs (for instance a spec server's
 * {@code GET /services/{id}}): a {@link SpecSource} over {@link SpecHttpClient#download}.
 *
 * <p>Every read is bounded: the connection must be made within the connect timeout, the whole
 * exchange (headers and body) must finish within the total timeout, and no more than
 * {@code maxBytes} body bytes are buffered — a longer body (or a {@code Content-Length} above
 * the limit) is refused. A non-2xx status fails naming the URI and the status
 * ({@link HttpStatusException}); redirects are not followed. When the response carries a strong
 * ETag of the form {@code "<64 hex digits>"} (what the spec server sends: the SHA-256 of the body),
 * the body must hash to it, so a truncated or altered download is refused; other ETag forms carry
 * no checkable hash and are ignored, unless the source requires a digest (as a node's spec server
 * downloads do), which refuses them.
 *
 * <p>The HTTP client (and its selector thread) is created on the first read, so a resolver that
 * never reads HTTP costs nothing. Thread-safe.
 */
public final class HttpSpecSource implements SpecSource {

    /** Default connect timeout: 5 s. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Default total timeout of one read (connect, headers and body): 30 s. */
    public static final Duration DEFAULT_TOTAL_TIMEOUT = Duration.ofSeconds(30);

    private final String scheme;
    private final boolean requireDigest;
    private final SpecHttpClient client;

    /**
     * A source for {@code scheme} ({@code http} or {@code https}).
     *
     * @throws IllegalArgumentException for another scheme or a non-positive timeout
     */
    public HttpSpecSource(String scheme, Duration connectTimeout, Duration totalTimeout) {
        this(scheme, connectTimeout, totalTimeout, Optional.empty(), false);
    }

    /**
     * A source for {@code scheme} that trusts {@code tls} (empty: the JDK's default trust store) for
     * {@code https}, and with {@code requireDigest} refuses a response without a SHA-256 ETag (what
     * a spec server always sends), so nothing unchecked is read from a server that should have one.
     *
     * @throws IllegalArgumentException for another scheme or a non-positive timeout
     */
    public HttpSpecSource(String scheme, Duration connectTimeout, Duration totalTimeout, Optional<SSLContext> tls,
            boolean requireDigest) {
        this(scheme, new SpecHttpClient(connectTimeout, totalTimeout, tls), requireDigest);
    }

    /**
     * A source for {@code scheme} whose reads are exchanges of {@code client} (shared with a
     * publisher of the same server, say); {@code requireDigest} as above.
     *
     * @throws IllegalArgumentException for another scheme
     */
    public HttpSpecSource(String scheme, SpecHttpClient client, boolean requireDigest) {
        String s = Objects.requireNonNull(scheme, "scheme").toLowerCase(Locale.ROOT);
        if (!s.equals("http") && !s.equals("https")) {
            throw new IllegalArgumentException("HttpSpecSource reads http or https, not '" + scheme + "'");
        }
        this.scheme = s;
        this.requireDigest = requireDigest;
        this.client = Objects.requireNonNull(client, "client");
    }

    /** A source for {@code scheme} with the default timeouts. */
    public HttpSpecSource(String scheme) {
        this(scheme, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TOTAL_TIMEOUT);
    }

    @Override
    public String scheme() {
        return scheme;
    }

    @Override
    public byte[] read(URI uri, int maxBytes) throws IOException {
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase(scheme) || uri.getHost() == null) {
            throw new IOException(uri + " is not an absolute " + scheme + " URI with a host");
        }
        SpecHttpClient.Download d = client.download(uri, Optional.empty(), maxBytes, requireDigest);
        if (d instanceof SpecHttpClient.Download.Found f) {
            return f.document();
        }
        // NotModified only answers an If-None-Match, which is not sent
        throw new HttpStatusException(uri, d instanceof SpecHttpClient.Download.NotFound ? 404 : 304);
    }
}
