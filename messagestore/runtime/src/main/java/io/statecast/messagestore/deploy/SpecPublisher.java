package io.statecast.messagestore.deploy;

import io.statecast.messagestore.deploy.http.SpecHttpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Stores a spec on a spec server: {@code PUT {uri}/services/{id}} with the bearer token
 * ({@code docs/spec-server.md}). It never overwrites: the PUT carries {@code If-None-Match: *}, so
 * when the ServiceID is stored already the server answers 412 and the publisher compares the
 * stored document's ETag (its SHA-256, from a {@code HEAD}) with the document's own — the same
 * document stored already is as good as stored; another version is a {@link Outcome#CONFLICT}
 * left for an operator. Every exchange is bounded by the timeout ({@link SpecHttpClient}); an answer's
 * body is read up to {@value #MAX_ANSWER_BYTES} bytes and not used.
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

    /** Largest answer body read (the server answers a PUT with one service's JSON, an error with a line). */
    static final int MAX_ANSWER_BYTES = 64 * 1024;

    private final Optional<String> token;
    private final SpecHttpClient client;

    /** Publishes through {@code client}, presenting {@code token} (empty: none). */
    SpecPublisher(SpecHttpClient client, Optional<String> token) {
        this.client = Objects.requireNonNull(client, "client");
        this.token = Objects.requireNonNull(token, "token");
    }

    /** Publishes {@code document}, whose SHA-256 is {@code sha256Hex}, at {@code uri}. */
    Result publish(URI uri, byte[] document, String sha256Hex) {
        try {
            HttpRequest.Builder put = client.request(uri)
                    .header("Content-Type", "application/scxml+xml")
                    .header("If-None-Match", "*")
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(document));
            token.ifPresent(t -> put.header("Authorization", "Bearer " + t));
            int status = client.exchange(put, MAX_ANSWER_BYTES).status();
            if (status == 201 || status == 200) {
                return new Result(Outcome.STORED, "HTTP " + status);
            }
            if (status != 412) {
                return new Result(Outcome.FAILED, uri + " answered PUT with HTTP " + status);
            }
            SpecHttpClient.Answer head = client.exchange(client.request(uri)
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()), MAX_ANSWER_BYTES);
            if (head.status() != 200) {
                return new Result(Outcome.FAILED, uri + " answered PUT with 412 and HEAD with HTTP " + head.status());
            }
            String etag = head.header("etag").orElse("").trim();
            if (etag.startsWith("W/")) {
                etag = etag.substring(2);
            }
            boolean same = etag.toLowerCase(Locale.ROOT).equals("\"" + sha256Hex.toLowerCase(Locale.ROOT) + "\"");
            return new Result(same ? Outcome.ALREADY_THERE : Outcome.CONFLICT, "stored ETag " + etag);
        } catch (IOException | IllegalArgumentException e) {
            String m = String.valueOf(e.getMessage());
            return new Result(Outcome.FAILED, m.contains(uri.toString()) ? m : uri + ": " + m);
        }
    }
}
