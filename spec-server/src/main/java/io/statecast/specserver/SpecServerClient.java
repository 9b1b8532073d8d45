package io.statecast.specserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import io.statecast.messagestore.deploy.http.HttpStatusException;
import io.statecast.messagestore.deploy.http.SpecHttpClient;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The spec server's API for applications and tools: list, download, publish, delete, history,
 * restore. It speaks the protocol (paths, JSON, bearer token, statuses); the exchanges themselves
 * are the node's {@link SpecHttpClient}, the one HTTP client of specs.
 *
 * <p>Every call is bounded: the connection by {@link Options#connectTimeout()}, the whole exchange
 * (headers and body) by {@link Options#requestTimeout()}, and the body by
 * {@link Options#maxResponseBytes()}. A downloaded document is checked against its ETag (its
 * SHA-256), so a truncated or altered transfer is an error, not a spec. Thread-safe.
 */
public final class SpecServerClient {

    /**
     * Client bounds.
     *
     * @param connectTimeout time to establish a connection; default 5 s
     * @param requestTimeout time for one whole exchange, body included; default 30 s
     * @param maxResponseBytes largest response body accepted; default
     *     {@value #DEFAULT_MAX_RESPONSE_BYTES} (a list of thousands of services, or a spec at the
     *     server's largest default size, fits)
     */
    public record Options(Duration connectTimeout, Duration requestTimeout, int maxResponseBytes) {
        /** Default {@link #maxResponseBytes}: 4 MiB. */
        public static final int DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
        /** All defaults. */
        public static final Options DEFAULTS = new Options(Duration.ofSeconds(5), Duration.ofSeconds(30), DEFAULT_MAX_RESPONSE_BYTES);

        /** Checks the bounds. */
        public Options {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(requestTimeout, "requestTimeout");
            if (connectTimeout.isNegative() || connectTimeout.isZero()) {
                throw new IllegalArgumentException("connectTimeout=" + connectTimeout + " must be > 0");
            }
            if (requestTimeout.isNegative() || requestTimeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout=" + requestTimeout + " must be > 0");
            }
            if (maxResponseBytes < 1024) {
                throw new IllegalArgumentException("maxResponseBytes=" + maxResponseBytes + " must be >= 1024");
            }
        }
    }

    /** Outcome of {@link #get}: a closed set. */
    public sealed interface Fetch {
        /**
         * The document.
         *
         * @param document the bytes, verified against the ETag
         * @param etag the quoted SHA-256
         */
        record Found(byte[] document, String etag) implements Fetch {
        }

        /** @param etag the current ETag, the one sent in {@code If-None-Match} */
        record NotModified(String etag) implements Fetch {
        }

        /** The server has no such service. */
        record NotFound() implements Fetch {
        }
    }

    /**
     * Outcome of a successful {@link #put}.
     *
     * @param created true for a new service (201), false for a new version (200)
     * @param etag the ETag of the stored version, for the next {@code If-Match}
     * @param info what the server stored
     */
    public record Stored(boolean created, String etag, ServiceInfo info) {
    }

    /**
     * A kept version of a service.
     *
     * @param sha256 its hash
     * @param size its length
     * @param storedAt when it was last stored
     * @param current whether it is the version served now
     */
    public record VersionInfo(String sha256, long size, Instant storedAt, boolean current) {
    }

    /**
     * One audit log entry.
     *
     * @param time when
     * @param action {@code create}, {@code replace}, {@code delete} or {@code restore}
     * @param sha256 the version stored (deleted, for {@code delete})
     * @param size its length
     * @param who the token's identity ({@code token:<8 hex>}) or {@code anonymous}
     * @param from the client's address
     * @param signedBy the key id that signed the version, when the server checks signatures
     */
    public record AuditEntry(Instant time, String action, String sha256, long size, String who, String from,
            Optional<String> signedBy) {
    }

    /**
     * A service's history.
     *
     * @param serviceId the service
     * @param current the SHA-256 served now, empty when deleted
     * @param versions the kept versions, newest first
     * @param log the audit entries about it, newest first
     */
    public record History(int serviceId, Optional<String> current, List<VersionInfo> versions, List<AuditEntry> log) {
    }

    private final URI base;
    private final Optional<String> token;
    private final Options options;
    private final SpecHttpClient http;
    private final ObjectMapper json = new ObjectMapper();

    /**
     * @param baseUri the server, e.g. {@code http://127.0.0.1:8470/}
     * @param token bearer token for writes, or empty
     * @param options bounds
     */
    public SpecServerClient(URI baseUri, Optional<String> token, Options options) {
        this(baseUri, token, options, Optional.empty());
    }

    /**
     * @param baseUri the server, e.g. {@code https://specs.example:8470/}
     * @param token bearer token for writes, or empty
     * @param options bounds
     * @param tls for https: the trust in the server (e.g. {@code TlsTrust.trusting(caFile)}); empty:
     *     the JDK's default trust store
     */
    public SpecServerClient(URI baseUri, Optional<String> token, Options options, Optional<javax.net.ssl.SSLContext> tls) {
        Objects.requireNonNull(baseUri, "baseUri");
        String s = baseUri.toString();
        this.base = URI.create(s.endsWith("/") ? s : s + "/");
        this.token = Objects.requireNonNull(token, "token");
        this.options = Objects.requireNonNull(options, "options");
        this.http = new SpecHttpClient(options.connectTimeout(), options.requestTimeout(),
                Objects.requireNonNull(tls, "tls"));
    }

    /**
     * A read-only client with default bounds.
     *
     * @param baseUri the server
     * @return the client
     */
    public static SpecServerClient create(URI baseUri) {
        return new SpecServerClient(baseUri, Optional.empty(), Options.DEFAULTS);
    }

    /**
     * Lists the stored services.
     *
     * @return the services, by ascending ServiceID
     * @throws SpecServerClientException on an error status or a failed exchange
     */
    public List<ServiceInfo> list() throws SpecServerClientException {
        SpecHttpClient.Answer r = send(request("services").GET());
        expect(r, 200);
        JsonNode root = parse(r.body());
        if (!root.isArray()) {
            throw malformed("the service list is not a JSON array");
        }
        List<ServiceInfo> out = new ArrayList<>(root.size());
        for (JsonNode n : root) {
            out.add(serviceInfo(n));
        }
        return out;
    }

    /**
     * Number of services, from {@code /health}.
     *
     * @return the count the server reports
     * @throws SpecServerClientException when the server is not healthy or not reachable
     */
    public int health() throws SpecServerClientException {
        SpecHttpClient.Answer r = send(request("health").GET());
        expect(r, 200);
        JsonNode root = parse(r.body());
        if (!"ok".equals(root.path("status").asText()) || !root.path("services").canConvertToInt()) {
            throw malformed("unexpected health document");
        }
        return root.get("services").intValue();
    }

    /**
     * Downloads a spec.
     *
     * @param serviceId the ServiceID
     * @param ifNoneMatch the ETag of a copy already held, to get {@link Fetch.NotModified} instead
     * @return the document, not-modified, or not-found
     * @throws SpecServerClientException on another error status, a failed exchange, or a body that
     *     does not match its ETag
     */
    public Fetch get(int serviceId, Optional<String> ifNoneMatch) throws SpecServerClientException {
        URI uri = base.resolve("services/" + serviceId);
        SpecHttpClient.Download d;
        try {
            d = http.download(uri, ifNoneMatch, options.maxResponseBytes(), true);
        } catch (HttpStatusException e) {
            throw failure("GET", uri, e.status(), e.body());
        } catch (IOException e) {
            // the message names the URI and what was wrong: the exchange, the size, the digest
            throw new SpecServerClientException(0, e.getMessage(), List.of(), e);
        }
        if (d instanceof SpecHttpClient.Download.Found f) {
            // download(requireDigest) refuses a document without a SHA-256 ETag
            return new Fetch.Found(f.document(), f.etag().orElseThrow());
        }
        if (d instanceof SpecHttpClient.Download.NotModified n) {
            return new Fetch.NotModified(n.etag());
        }
        return new Fetch.NotFound();
    }

    /**
     * Uploads a spec: creates the service, or replaces it when {@code ifMatch} is its current ETag.
     *
     * @param serviceId the ServiceID; must be the one the document declares
     * @param document the SCXML document
     * @param ifMatch the current ETag when replacing; empty when creating
     * @return what was stored
     * @throws SpecServerClientException with status 400 (and {@link SpecServerClientException#problems()}),
     *     401, 409, 412, 413, 507, or 0 for a failed exchange
     */
    public Stored put(int serviceId, byte[] document, Optional<String> ifMatch) throws SpecServerClientException {
        HttpRequest.Builder b = request("services/" + serviceId)
                .header("Content-Type", Responses.SCXML_TYPE)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(document));
        ifMatch.ifPresent(t -> b.header("If-Match", t));
        authorize(b);
        SpecHttpClient.Answer r = send(b);
        if (r.status() != 200 && r.status() != 201) {
            throw failure(r);
        }
        String etag = r.header("ETag").orElseThrow(() -> malformed("upload answered without ETag"));
        return new Stored(r.status() == 201, etag, serviceInfo(parse(r.body())));
    }

    /**
     * Removes a service.
     *
     * @param serviceId the ServiceID
     * @param ifMatch the ETag the caller expects to delete, or empty to delete whatever is stored
     * @return true when deleted, false when there was no such service
     * @throws SpecServerClientException on 401, 412 or a failed exchange
     */
    public boolean delete(int serviceId, Optional<String> ifMatch) throws SpecServerClientException {
        HttpRequest.Builder b = request("services/" + serviceId).DELETE();
        ifMatch.ifPresent(t -> b.header("If-Match", t));
        authorize(b);
        SpecHttpClient.Answer r = send(b);
        if (r.status() == 404) {
            return false;
        }
        expect(r, 204);
        return true;
    }

    /**
     * The kept versions of a service and its audit entries.
     *
     * @param serviceId the ServiceID
     * @return its history
     * @throws SpecServerClientException with 404 when the server knows nothing of it, or a failed exchange
     */
    public History history(int serviceId) throws SpecServerClientException {
        SpecHttpClient.Answer r = send(request("services/" + serviceId + "/history").GET());
        expect(r, 200);
        JsonNode root = parse(r.body());
        try {
            List<VersionInfo> versions = new ArrayList<>();
            for (JsonNode v : root.path("versions")) {
                versions.add(new VersionInfo(v.path("sha256").asText(), v.path("size").asLong(),
                        Instant.parse(v.path("storedAt").asText()), v.path("current").asBoolean()));
            }
            List<AuditEntry> log = new ArrayList<>();
            for (JsonNode e : root.path("log")) {
                log.add(new AuditEntry(Instant.parse(e.path("time").asText()), e.path("action").asText(),
                        e.path("sha256").asText(), e.path("size").asLong(), e.path("who").asText(), e.path("from").asText(),
                        e.path("signedBy").isTextual() ? Optional.of(e.path("signedBy").asText()) : Optional.empty()));
            }
            return new History(root.path("serviceId").asInt(), root.path("current").isTextual()
                    ? Optional.of(root.path("current").asText()) : Optional.empty(), versions, log);
        } catch (DateTimeParseException e) {
            throw malformed("history with a time that is not an ISO-8601 instant");
        }
    }

    /**
     * Makes a kept version current again (or brings a deleted service back).
     *
     * @param serviceId the ServiceID
     * @param sha256 the version, from {@link #history}
     * @param ifMatch the ETag the caller expects to replace, or empty
     * @return what is stored now
     * @throws SpecServerClientException with 401, 403 (not signed by a key the server trusts), 404
     *     (no such version), 400, 412, or 0 for a failed exchange
     */
    public Stored restore(int serviceId, String sha256, Optional<String> ifMatch) throws SpecServerClientException {
        HttpRequest.Builder b = request("services/" + serviceId + "/history/" + sha256)
                .POST(HttpRequest.BodyPublishers.noBody());
        ifMatch.ifPresent(t -> b.header("If-Match", t));
        authorize(b);
        SpecHttpClient.Answer r = send(b);
        expect(r, 200);
        String etag = r.header("ETag").orElseThrow(() -> malformed("restore answered without ETag"));
        return new Stored(false, etag, serviceInfo(parse(r.body())));
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(options.requestTimeout());
    }

    private void authorize(HttpRequest.Builder b) {
        token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
    }

    private SpecHttpClient.Answer send(HttpRequest.Builder b) throws SpecServerClientException {
        try {
            return http.exchange(b, options.maxResponseBytes());
        } catch (IOException e) {
            // the message names the method and URI
            throw new SpecServerClientException(0, e.getMessage(), List.of(), e);
        }
    }

    private void expect(SpecHttpClient.Answer r, int status) throws SpecServerClientException {
        if (r.status() != status) {
            throw failure(r);
        }
    }

    private SpecServerClientException failure(SpecHttpClient.Answer r) {
        return failure(r.request().method(), r.request().uri(), r.status(), r.body());
    }

    private SpecServerClientException failure(String method, URI uri, int status, byte[] answer) {
        String message = "HTTP " + status;
        List<SpecProblem> problems = new ArrayList<>();
        try {
            JsonNode body = json.readTree(answer);
            if (body != null && body.isObject()) {
                if (body.path("error").isTextual()) {
                    message += ": " + body.get("error").asText();
                }
                for (JsonNode p : body.path("problems")) {
                    problems.add(new SpecProblem(Math.max(0, p.path("line").asInt()), Math.max(0, p.path("column").asInt()),
                            p.path("message").asText("")));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not our JSON: the status alone says what happened
        }
        return new SpecServerClientException(status, method + " " + uri + ": " + message, problems, null);
    }

    private JsonNode parse(byte[] body) throws SpecServerClientException {
        try {
            JsonNode n = json.readTree(body);
            if (n == null) {
                throw malformed("empty response body");
            }
            return n;
        } catch (IOException e) {
            throw new SpecServerClientException(0, "response is not JSON: " + e.getMessage(), List.of(), e);
        }
    }

    private ServiceInfo serviceInfo(JsonNode n) throws SpecServerClientException {
        if (!n.path("serviceId").canConvertToInt() || !n.path("name").isTextual() || !n.path("scope").isTextual()
                || !n.path("sha256").isTextual() || !n.path("size").canConvertToLong() || !n.path("storedAt").isTextual()) {
            throw malformed("service entry lacks serviceId, name, scope, sha256, size or storedAt");
        }
        try {
            return new ServiceInfo(n.get("serviceId").intValue(), n.get("name").asText(), n.get("scope").asText(),
                    n.get("sha256").asText(), n.get("size").longValue(), Instant.parse(n.get("storedAt").asText()));
        } catch (DateTimeParseException e) {
            throw malformed("storedAt is not an ISO-8601 instant: " + n.get("storedAt").asText());
        }
    }

    private static SpecServerClientException malformed(String message) {
        return new SpecServerClientException(0, "malformed response: " + message, List.of(), null);
    }
}
