package io.statecast.messagestore.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stores a spec on a spec server: {@code PUT {uri}/services/{id}} with the bearer token
 * ({@code docs/spec-server.md}). It never overwrites: the PUT carries {@code If-None-Match: *}, so
 * when the ServiceID is stored already the server answers 412 and the publisher compares the
 * stored document's ETag (its SHA-256, from a {@code HEAD}) with the document's own — the same
 * document stored already is as good as stored; another version is a {@link Outcome#CONFLICT}
 * left for an operator. Every exchange is bounded by the timeout; response bodies are discarded.
 * Thread-safe.
 */
final class SpecPublisher {

    /** What a publish achieved. */
    enum Outcome {
        /** The server stored the document (201). */
        STORED,
        /** The server holds exactly this document already. */
        ALREADY_THERE,
        /** The server holds another version of this ServiceID; not replaced. */
        CONFLICT,
        /** Anything else: refused (400, 401, 409, 413, ...), server error, I/O, timeout. */
        FAILED
    }

    /** An outcome and, for {@link Outcome#FAILED}, why. */
    record Result(Outcome outcome, String detail) {
    }

    private final Duration timeout;
    private final Optional<String> token;
    private final Object clientLock = new Object();
    private HttpClient client;

    private final Optional<javax.net.ssl.SSLContext> tls;

    SpecPublisher(Duration timeout, Optional<String> token, Optional<javax.net.ssl.SSLContext> tls) {
        this.tls = Objects.requireNonNull(tls, "tls");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.token = Objects.requireNonNull(token, "token");
    }

    /** Publishes {@code document}, whose SHA-256 is {@code sha256Hex}, at {@code uri}. */
    Result publish(URI uri, byte[] document, String sha256Hex) {
        try {
            HttpRequest.Builder put = HttpRequest.newBuilder(uri).timeout(timeout)
                    .header("Content-Type", "application/scxml+xml")
                    .header("If-None-Match", "*")
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(document));
            token.ifPresent(t -> put.header("Authorization", "Bearer " + t));
            int status = exchange(put.build()).statusCode();
            if (status == 201 || status == 200) {
                return new Result(Outcome.STORED, "HTTP " + status);
            }
            if (status != 412) {
                return new Result(Outcome.FAILED, uri + " answered PUT with HTTP " + status);
            }
            HttpResponse<Void> head = exchange(HttpRequest.newBuilder(uri).timeout(timeout)
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
            if (head.statusCode() != 200) {
                return new Result(Outcome.FAILED, uri + " answered PUT with 412 and HEAD with HTTP " + head.statusCode());
            }
            String etag = head.headers().firstValue("etag").orElse("").trim();
            if (etag.startsWith("W/")) {
                etag = etag.substring(2);
            }
            boolean same = etag.toLowerCase(Locale.ROOT).equals("\"" + sha256Hex.toLowerCase(Locale.ROOT) + "\"");
            return new Result(same ? Outcome.ALREADY_THERE : Outcome.CONFLICT, "stored ETag " + etag);
        } catch (IOException | IllegalArgumentException e) {
            return new Result(Outcome.FAILED, uri + ": " + e.getMessage());
        }
    }

    private HttpResponse<Void> exchange(HttpRequest request) throws IOException {
        CompletableFuture<HttpResponse<Void>> f = client().sendAsync(request, HttpResponse.BodyHandlers.discarding());
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IOException("no answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (ExecutionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            throw new IOException(c.getMessage() == null ? c.toString() : c.getMessage(), c);
        }
    }

    private HttpClient client() {
        synchronized (clientLock) {
            if (client == null) {
                HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(timeout)
                        .followRedirects(HttpClient.Redirect.NEVER);
                tls.ifPresent(b::sslContext);
                client = b.build();
            }
            return client;
        }
    }
}
