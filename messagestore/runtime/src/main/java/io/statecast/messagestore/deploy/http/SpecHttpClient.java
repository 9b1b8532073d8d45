package io.statecast.messagestore.deploy.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * Talks to a spec server (or any server of specs) over HTTP with the JDK's {@link HttpClient}:
 * the one place that owns the exchange, for the node ({@code HttpSpecSource}, the spec downloader
 * and publisher) and for the spec server's own client ({@code SpecServerClient}).
 *
 * <p>Every exchange is bounded: the connection by the connect timeout, the whole exchange
 * (headers and body) by the request timeout, and the body by the caller's limit
 * ({@link BoundedBody}). Redirects are not followed; HTTP/1.1 is spoken (a spec server speaks
 * nothing else, and no upgrade is attempted). A spec download ({@link #download}) checks the body
 * against a strong ETag of the form {@code "<64 hex digits>"} (its SHA-256, what a spec server
 * sends), so a truncated or altered transfer is an error, not a spec.
 *
 * <p>The underlying {@link HttpClient} (and its selector thread) is made on the first exchange, so
 * a client that is never used costs nothing. Thread-safe.
 */
public final class SpecHttpClient {

    private static final Pattern SHA256_ETAG = Pattern.compile("\"([0-9a-fA-F]{64})\"");

    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final Optional<SSLContext> tls;
    private final Object lock = new Object();
    private HttpClient http;

    /**
     * An answer whose body was read in full.
     *
     * @param request the request answered
     * @param status  the status code
     * @param headers the response headers
     * @param body    the body, at most the limit the exchange was given
     */
    public record Answer(HttpRequest request, int status, HttpHeaders headers, byte[] body) {
        /** The first value of header {@code name}. */
        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }
    }

    /** Outcome of {@link #download}: a closed set. */
    public sealed interface Download {
        /**
         * The document.
         *
         * @param document the bytes, verified against the ETag when it is a SHA-256 one
         * @param etag     the ETag as sent, if any
         */
        record Found(byte[] document, Optional<String> etag) implements Download {
        }

        /** @param etag the current ETag: the one sent in {@code If-None-Match} unless the answer names another */
        record NotModified(String etag) implements Download {
        }

        /** The server has no such document (404). */
        record NotFound() implements Download {
        }
    }

    /**
     * @param connectTimeout time to establish a connection
     * @param requestTimeout time for one whole exchange, body included
     * @param tls            for {@code https}: the trust in the server; empty: the JDK's default trust store
     * @throws IllegalArgumentException for a timeout that is not positive
     */
    public SpecHttpClient(Duration connectTimeout, Duration requestTimeout, Optional<SSLContext> tls) {
        this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.tls = Objects.requireNonNull(tls, "tls");
        if (connectTimeout.isNegative() || connectTimeout.isZero() || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("HTTP timeouts must be positive: connect=" + connectTimeout + ", request="
                    + requestTimeout);
        }
    }

    /** The time one whole exchange may take. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /**
     * A request to {@code uri} with this client's request timeout, for {@link #exchange}.
     *
     * @throws IOException when {@code uri} cannot be requested (not absolute http/https, say)
     */
    public HttpRequest.Builder request(URI uri) throws IOException {
        try {
            return HttpRequest.newBuilder(uri).timeout(requestTimeout);
        } catch (IllegalArgumentException e) {
            throw new IOException(uri + " cannot be requested: " + e.getMessage(), e);
        }
    }

    /**
     * Sends the request and reads the whole answer, whatever its status.
     *
     * @param request  the request (its timeout is this client's, whatever it says)
     * @param maxBytes the largest body read
     * @throws HttpTimeoutException when the exchange does not complete within the request timeout
     * @throws IOException          naming the method and URI, when it fails or the body is over the limit
     */
    public Answer exchange(HttpRequest.Builder request, int maxBytes) throws IOException {
        HttpRequest req;
        try {
            req = request.timeout(requestTimeout).build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IOException("the request cannot be made: " + e.getMessage(), e);
        }
        String what = req.method() + " " + req.uri();
        CompletableFuture<HttpResponse<byte[]>> f = client().sendAsync(req, BoundedBody.handler(req.uri(), maxBytes,
                req.method().equals("HEAD")));
        HttpResponse<byte[]> r;
        try {
            r = f.get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw noAnswer(what);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(what + ": interrupted");
        } catch (ExecutionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            if (c instanceof HttpTimeoutException) {
                throw noAnswer(what);
            }
            String detail = c.getMessage() == null ? c.toString() : c.getMessage();
            throw new IOException(detail.startsWith(req.uri().toString()) ? detail : what + ": " + detail, c);
        }
        return new Answer(req, r.statusCode(), r.headers(), r.body());
    }

    private HttpTimeoutException noAnswer(String what) {
        return new HttpTimeoutException(what + ": no complete answer within " + requestTimeout.toMillis() + " ms");
    }

    /**
     * {@code GET uri}: a spec document, checked against its ETag.
     *
     * @param uri           the document
     * @param ifNoneMatch   the ETag of a copy already held, to get {@link Download.NotModified}
     * @param maxBytes      the largest document read
     * @param requireDigest refuse a document without a SHA-256 ETag (what a spec server always
     *                      sends), so nothing unchecked is read from a server that should have one
     * @throws HttpStatusException for a status other than 2xx, 304 and 404
     * @throws IOException         for a failed exchange, a document over the limit, or one that does
     *                             not match its ETag
     */
    public Download download(URI uri, Optional<String> ifNoneMatch, int maxBytes, boolean requireDigest)
            throws IOException {
        HttpRequest.Builder b = request(uri).GET();
        ifNoneMatch.ifPresent(t -> b.header("If-None-Match", t));
        Answer a = exchange(b, maxBytes);
        if (a.status() == 404) {
            return new Download.NotFound();
        }
        if (a.status() == 304 && ifNoneMatch.isPresent()) {
            return new Download.NotModified(a.header("etag").orElse(ifNoneMatch.get()));
        }
        if (a.status() < 200 || a.status() > 299) {
            throw new HttpStatusException(uri, a.status(), a.body());
        }
        Optional<String> etag = a.header("etag");
        checkDigest(uri, etag, a.body(), requireDigest);
        return new Download.Found(a.body(), etag);
    }

    /**
     * Checks {@code body} against {@code etag} when it is a SHA-256 ETag.
     *
     * @param required refuse an ETag of another form, or none
     * @throws IOException naming {@code uri} when the body does not match, or no digest is there to check
     */
    public static void checkDigest(URI uri, Optional<String> etag, byte[] body, boolean required) throws IOException {
        var m = SHA256_ETAG.matcher(etag.orElse("").trim());
        if (!m.matches()) {
            if (required) {
                throw new IOException(uri + ": refused: the response has no verifiable digest (ETag \"<SHA-256 hex>\"), "
                        + (etag.isEmpty() ? "no ETag at all" : "ETag " + printable(etag.get())));
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

    /** At most 80 characters of {@code s}, control characters replaced, for an error message. */
    private static String printable(String s) {
        String t = s.length() > 80 ? s.substring(0, 80) + "…" : s;
        StringBuilder b = new StringBuilder();
        t.codePoints().forEach(c -> b.appendCodePoint(c < 0x20 || c == 0x7f ? '?' : c));
        return b.toString();
    }

    private HttpClient client() {
        synchronized (lock) {
            if (http == null) {
                HttpClient.Builder b = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(connectTimeout)
                        .followRedirects(HttpClient.Redirect.NEVER);
                tls.ifPresent(b::sslContext);
                http = b.build();
            }
            return http;
        }
    }
}
