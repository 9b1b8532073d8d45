package io.statecast.messagestore.deploy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * Reads {@code http:} or {@code https:} URIs (for instance a spec server's
 * {@code GET /services/{id}}) with the JDK's {@link HttpClient}.
 *
 * <p>Every read is bounded: the connection must be made within the connect timeout, the whole
 * exchange (headers and body) must finish within the total timeout, and no more than
 * {@code maxBytes + 1} body bytes are buffered — a longer body (or a {@code Content-Length} above
 * the limit) is refused. A non-2xx status fails naming the URI and the status; redirects are not
 * followed. When the response carries a strong ETag of the form {@code "<64 hex digits>"} (what the
 * spec server sends: the SHA-256 of the body), the body must hash to it, so a truncated or altered
 * download is refused; other ETag forms carry no checkable hash and are ignored, unless the source
 * requires a digest (as a node's spec server downloads do), which refuses them.
 *
 * <p>The {@link HttpClient} (and its selector thread) is created on the first read, so a resolver
 * that never reads HTTP costs nothing. Thread-safe.
 */
public final class HttpSpecSource implements SpecSource {

    /** Default connect timeout: 5 s. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Default total timeout of one read (connect, headers and body): 30 s. */
    public static final Duration DEFAULT_TOTAL_TIMEOUT = Duration.ofSeconds(30);

    private static final Pattern SHA256_ETAG = Pattern.compile("\"([0-9a-fA-F]{64})\"");

    private final String scheme;
    private final Duration connectTimeout;
    private final Duration totalTimeout;
    private final Optional<SSLContext> tls;
    private final boolean requireDigest;
    private final Object clientLock = new Object();
    private HttpClient client;

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
        this.tls = Objects.requireNonNull(tls, "tls");
        this.requireDigest = requireDigest;
        String s = Objects.requireNonNull(scheme, "scheme").toLowerCase(Locale.ROOT);
        if (!s.equals("http") && !s.equals("https")) {
            throw new IllegalArgumentException("HttpSpecSource reads http or https, not '" + scheme + "'");
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero() || totalTimeout.isNegative() || totalTimeout.isZero()) {
            throw new IllegalArgumentException("HTTP spec source timeouts must be positive: connect=" + connectTimeout
                    + ", total=" + totalTimeout);
        }
        this.scheme = s;
        this.connectTimeout = connectTimeout;
        this.totalTimeout = totalTimeout;
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
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(uri).GET().timeout(totalTimeout).build();
        } catch (IllegalArgumentException e) {
            throw new IOException(uri + " cannot be requested: " + e.getMessage(), e);
        }
        CompletableFuture<HttpResponse<byte[]>> exchange =
                client().sendAsync(request, info -> bodyFor(info, uri, maxBytes));
        HttpResponse<byte[]> response;
        try {
            response = exchange.get(totalTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new HttpTimeoutException(uri + ": no complete answer within " + totalTimeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(uri + ": interrupted while reading");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof HttpTimeoutException) {
                throw new HttpTimeoutException(uri + ": no complete answer within " + totalTimeout.toMillis() + " ms");
            }
            String detail = c == null ? e.toString() : c.getMessage() == null ? c.toString() : c.getMessage();
            throw new IOException(detail.startsWith(uri.toString()) ? detail : uri + ": " + detail, c);
        }
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            throw new HttpStatusException(uri, status);
        }
        byte[] body = response.body();
        checkEtag(uri, response.headers().firstValue("etag"), body, requireDigest);
        return body;
    }

    private static HttpResponse.BodySubscriber<byte[]> bodyFor(HttpResponse.ResponseInfo info, URI uri, int maxBytes) {
        if (info.statusCode() < 200 || info.statusCode() > 299) {
            return HttpResponse.BodySubscribers.replacing(null);
        }
        long declared = info.headers().firstValueAsLong("content-length").orElse(-1L);
        if (declared > maxBytes) {
            return new BoundedBody(uri, maxBytes, new IOException(uri + " is larger than the limit of " + maxBytes
                    + " bytes (Content-Length " + declared + ")"));
        }
        return new BoundedBody(uri, maxBytes, null);
    }

    private static void checkEtag(URI uri, Optional<String> etag, byte[] body, boolean required) throws IOException {
        var m = SHA256_ETAG.matcher(etag.orElse("").trim());
        if (!m.matches()) {
            if (required) {
                throw new IOException(uri + ": refused: the response has no verifiable digest (ETag \"<SHA-256 hex>\"), "
                        + (etag.isEmpty() ? "no ETag at all" : "ETag " + abbreviate(etag.get())));
            }
            return;
        }
        byte[] actual;
        try {
            actual = MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        String hex = HexFormat.of().formatHex(actual);
        if (!hex.equalsIgnoreCase(m.group(1))) {
            throw new IOException(uri + ": body (" + body.length + " bytes) does not match its ETag: SHA-256 is " + hex
                    + ", ETag says " + m.group(1).toLowerCase(Locale.ROOT));
        }
    }

    private static String abbreviate(String s) {
        String t = s.length() > 80 ? s.substring(0, 80) + "…" : s;
        StringBuilder b = new StringBuilder();
        t.codePoints().forEach(c -> b.appendCodePoint(c < 0x20 || c == 0x7f ? '?' : c));
        return b.toString();
    }

    private HttpClient client() {
        synchronized (clientLock) {
            if (client == null) {
                HttpClient.Builder b = HttpClient.newBuilder()
                        .connectTimeout(connectTimeout)
                        .followRedirects(HttpClient.Redirect.NEVER);
                tls.ifPresent(b::sslContext);
                client = b.build();
            }
            return client;
        }
    }

    /** Collects at most {@code maxBytes}; the byte after that cancels the download and fails it. */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

        private final URI uri;
        private final int maxBytes;
        private final IOException refusal;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private Flow.Subscription subscription;

        BoundedBody(URI uri, int maxBytes, IOException refusal) {
            this.uri = uri;
            this.maxBytes = maxBytes;
            this.refusal = refusal;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            this.subscription = s;
            if (refusal != null) {
                s.cancel();
                result.completeExceptionally(refusal);
                return;
            }
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                int n = b.remaining();
                if ((long) buffer.size() + n > maxBytes) {
                    subscription.cancel();
                    result.completeExceptionally(new IOException(uri + " is larger than the limit of " + maxBytes
                            + " bytes"));
                    return;
                }
                byte[] chunk = new byte[n];
                b.get(chunk);
                buffer.write(chunk, 0, n);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(buffer.toByteArray());
        }
    }
}
