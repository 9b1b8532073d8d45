package io.statecast.messagestore.deploy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.statecast.overlay.io.FileErrors;
import io.statecast.overlay.socket.ConfigValueException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * Where a node downloads the specs of services it does not know ({@code GET {uri}/services/{id}}
 * of a spec server, {@code docs/spec-server.md}), how often it tries, and whether it may publish
 * specs there ({@code PUT}).
 *
 * <p>The first held message of an unknown ServiceID starts one cycle for it (at most one under
 * way per ServiceID, 1,024 ServiceIDs at most, on one background thread). The downloaded
 * document is checked against its ETag, validated like any spec (the store's largest spec size
 * included), must declare that ServiceID, and is then installed, releasing the held messages in
 * order. A 404 makes the node send a Service Request message to the held message's source and try
 * again after a wait; another failure (I/O, timeout, status) only waits. After
 * {@link Retry#tries()} downloads the held messages of that service are dropped as
 * {@code SPEC_UNAVAILABLE}, and the next message of the service starts a new cycle. A document
 * that does not validate or declares another ServiceID is refused and not retried (a loaded spec
 * is never replaced; the held messages expire). Counters: {@code MessageStoreMetrics.deployment}.
 *
 * @param uri     the server's base URI, {@code http} or {@code https} with a host
 * @param timeout connect and total time of one download or publish; default {@link #DEFAULT_TIMEOUT}
 * @param token   the bearer token publishes present; empty: none (only an insecure server accepts them)
 * @param retry   how often an unknown service is looked for before its held messages are dropped
 * @param publish when this node publishes specs
 * @param tls     for {@code https}: the TLS trust in the server ({@link TlsTrust}, the certificates of
 *                {@code caFile}); empty: the JDK's default trust store
 */
public record SpecServerSettings(URI uri, Duration timeout, Optional<String> token, Retry retry, Publish publish,
        Optional<SSLContext> tls) {

    /** Default {@link #timeout}: 5 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    /** Shortest accepted token, as the spec server's. */
    public static final int MIN_TOKEN_CHARS = 16;
    /** Longest accepted token, as the spec server's. */
    public static final int MAX_TOKEN_CHARS = 1024;

    /**
     * Tries to obtain an unknown service's spec. After a download answered 404 the node sends a
     * Service Request message to the held message's source, then waits and downloads again; after
     * another failure it only waits. The wait before try {@code k + 1} is
     * {@code min(maxInterval, interval * 2^(k-1))}.
     *
     * @param tries       downloads in all, the first included, 1..100; default 4
     * @param interval    the first wait; default 250 ms
     * @param maxInterval the longest wait; default 2 s
     */
    public record Retry(int tries, Duration interval, Duration maxInterval) {

        /** 4 tries, 250 ms doubling up to 2 s: the last try is 1.75 s after the first. */
        public static final Retry DEFAULTS = new Retry(4, Duration.ofMillis(250), Duration.ofSeconds(2));
        /** Most tries. */
        public static final int MAX_TRIES = 100;

        /** Checks the values. */
        public Retry {
            Objects.requireNonNull(interval, "interval");
            Objects.requireNonNull(maxInterval, "maxInterval");
            if (tries < 1 || tries > MAX_TRIES) {
                throw new IllegalArgumentException("tries must be 1.." + MAX_TRIES + ", got " + tries);
            }
            if (interval.isNegative() || interval.isZero() || maxInterval.compareTo(interval) < 0) {
                throw new IllegalArgumentException("need 0 < interval <= maxInterval, got " + interval + ", " + maxInterval);
            }
        }

        /** The wait after try {@code tried} (1-based) failed. */
        public Duration delayAfter(int tried) {
            long ms = interval.toMillis();
            for (int i = 1; i < tried && ms < maxInterval.toMillis(); i++) {
                ms *= 2;
            }
            return Duration.ofMillis(Math.min(ms, maxInterval.toMillis()));
        }
    }

    /**
     * When this node publishes specs to the server. Both are off by default: publishing writes to
     * a shared server and needs its token.
     *
     * @param onRequest   answer a Service Request message for a service this node has loaded by
     *                    publishing its spec
     * @param onLoad      publish every spec loaded with {@code loadService} (configured services
     *                    included)
     * @param perService  a ServiceID is published in answer to requests at most once in this
     *                    time, however many requests arrive; default 10 s
     * @param maxPerMinute publishes in answer to requests, all ServiceIDs together, per minute
     *                    (a token bucket of this size refilled evenly); default 30
     */
    public record Publish(boolean onRequest, boolean onLoad, Duration perService, int maxPerMinute) {

        /** Publish nothing. */
        public static final Publish NEVER = new Publish(false, false, Duration.ofSeconds(10), 30);

        /** Checks the values. */
        public Publish {
            Objects.requireNonNull(perService, "perService");
            if (perService.isNegative() || perService.isZero()) {
                throw new IllegalArgumentException("perService must be positive, got " + perService);
            }
            if (maxPerMinute < 1 || maxPerMinute > 10_000) {
                throw new IllegalArgumentException("maxPerMinute must be 1..10000, got " + maxPerMinute);
            }
        }
    }

    /** Checks the values. */
    public SpecServerSettings {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(publish, "publish");
        Objects.requireNonNull(tls, "tls");
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
        token.ifPresent(SpecServerSettings::checkToken);
    }

    /** Largest token file read. */
    private static final int MAX_TOKEN_FILE_BYTES = 4096;

    /**
     * The {@code specServer} section of a node's configuration ({@code docs/config.md}): the file's
     * field names, defaults for absent fields, the file's ranges; reads the token and CA files.
     */
    @JsonCreator
    static SpecServerSettings fromJson(
            @JsonProperty("uri") String uri,
            @JsonProperty("timeoutMs") Long timeoutMs,
            @JsonProperty("tokenFile") String tokenFile,
            @JsonProperty("tries") Long tries,
            @JsonProperty("retryIntervalMs") Long retryIntervalMs,
            @JsonProperty("retryMaxIntervalMs") Long retryMaxIntervalMs,
            @JsonProperty("publishOnRequest") Boolean publishOnRequest,
            @JsonProperty("publishOnLoad") Boolean publishOnLoad,
            @JsonProperty("publishIntervalMs") Long publishIntervalMs,
            @JsonProperty("maxPublishesPerMinute") Long maxPublishesPerMinute,
            @JsonProperty("caFile") String caFile) {
        if (uri == null) {
            throw new ConfigValueException("uri", " is required and must be a string");
        }
        URI base = ConfigValueException.uri("uri", uri);
        long timeout = ConfigValueException.within("timeoutMs", timeoutMs, DEFAULT_TIMEOUT.toMillis(), 1, 600_000);
        Retry r = Retry.DEFAULTS;
        int n = ConfigValueException.within("tries", tries, r.tries(), 1, Retry.MAX_TRIES);
        long interval = ConfigValueException.within("retryIntervalMs", retryIntervalMs, r.interval().toMillis(), 1, 600_000);
        long maxInterval = ConfigValueException.within("retryMaxIntervalMs", retryMaxIntervalMs,
                Math.max(interval, r.maxInterval().toMillis()), 1, 600_000);
        if (maxInterval < interval) {
            throw new ConfigValueException("retryMaxIntervalMs", "=" + maxInterval + " must be >= retryIntervalMs="
                    + interval);
        }
        Publish p = Publish.NEVER;
        Publish publish = new Publish(
                publishOnRequest == null ? p.onRequest() : publishOnRequest,
                publishOnLoad == null ? p.onLoad() : publishOnLoad,
                Duration.ofMillis(ConfigValueException.within("publishIntervalMs", publishIntervalMs,
                        p.perService().toMillis(), 1, 86_400_000L)),
                ConfigValueException.within("maxPublishesPerMinute", maxPublishesPerMinute, p.maxPerMinute(), 1, 10_000));
        Optional<String> token = tokenFile == null ? Optional.empty() : Optional.of(readToken(tokenFile));
        Optional<SSLContext> tls = Optional.empty();
        if (caFile != null) {
            try {
                tls = Optional.of(TlsTrust.trusting(Path.of(caFile)));
            } catch (IOException e) {
                throw new ConfigValueException("caFile", "=" + caFile + ": " + FileErrors.describe(e));
            } catch (InvalidPathException e) {
                throw new ConfigValueException("caFile", "=" + caFile + ": " + e.getMessage());
            }
            if (!base.getScheme().equalsIgnoreCase("https")) {
                throw new ConfigValueException("caFile", " is for an https uri; uri is " + uri);
            }
        }
        try {
            return new SpecServerSettings(base, Duration.ofMillis(timeout), token,
                    new Retry(n, Duration.ofMillis(interval), Duration.ofMillis(maxInterval)), publish, tls);
        } catch (IllegalArgumentException e) {
            throw new ConfigValueException("uri", "=" + uri + ": " + e.getMessage());
        }
    }

    /** The token in the file (whitespace-trimmed), checked like the spec server checks its own. */
    private static String readToken(String file) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            bytes = in.readNBytes(MAX_TOKEN_FILE_BYTES + 1);
        } catch (IOException e) {
            throw new ConfigValueException("tokenFile", "=" + file + " cannot be read: " + FileErrors.describe(e));
        } catch (InvalidPathException e) {
            throw new ConfigValueException("tokenFile", "=" + file + " cannot be read: " + e.getMessage());
        }
        if (bytes.length > MAX_TOKEN_FILE_BYTES) {
            throw new ConfigValueException("tokenFile", "=" + file + " is larger than " + MAX_TOKEN_FILE_BYTES + " bytes");
        }
        String token = new String(bytes, StandardCharsets.US_ASCII).strip();
        try {
            checkToken(token);
        } catch (IllegalArgumentException e) {
            // the message never contains the token itself
            throw new ConfigValueException("tokenFile", "=" + file + ": " + e.getMessage());
        }
        return token;
    }

    /** Settings with the JDK's default TLS trust. */
    public SpecServerSettings(URI uri, Duration timeout, Optional<String> token, Retry retry, Publish publish) {
        this(uri, timeout, token, retry, publish, Optional.empty());
    }

    /** Download only: default tries, no token, no publishing. */
    public SpecServerSettings(URI uri, Duration timeout) {
        this(uri, timeout, Optional.empty(), Retry.DEFAULTS, Publish.NEVER);
    }

    /** These settings with {@code t} as the token. */
    public SpecServerSettings withToken(String t) {
        return new SpecServerSettings(uri, timeout, Optional.of(t), retry, publish, tls);
    }

    /** These settings with {@code r}. */
    public SpecServerSettings withRetry(Retry r) {
        return new SpecServerSettings(uri, timeout, token, r, publish, tls);
    }

    /** These settings with {@code p}. */
    public SpecServerSettings withPublish(Publish p) {
        return new SpecServerSettings(uri, timeout, token, retry, p, tls);
    }

    /** These settings trusting {@code context} for {@code https} ({@link TlsTrust#trusting}). */
    public SpecServerSettings withTls(SSLContext context) {
        return new SpecServerSettings(uri, timeout, token, retry, publish, Optional.of(context));
    }

    /**
     * Checks a token: 16–1024 visible ASCII characters, like the server's token file.
     *
     * @throws IllegalArgumentException saying what is wrong, never quoting the token
     */
    public static void checkToken(String t) {
        if (t.length() < MIN_TOKEN_CHARS || t.length() > MAX_TOKEN_CHARS) {
            throw new IllegalArgumentException("the token must have " + MIN_TOKEN_CHARS + ".." + MAX_TOKEN_CHARS
                    + " characters, has " + t.length());
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException("the token must be visible ASCII; character " + (i + 1) + " is not");
            }
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

    /** Never shows the token. */
    @Override
    public String toString() {
        return "SpecServerSettings[uri=" + uri + ", timeout=" + timeout + ", token=" + (token.isPresent() ? "(set)" : "none")
                + ", retry=" + retry + ", publish=" + publish + ", tls=" + (tls.isPresent() ? "own trust" : "default")
                + "]";
    }
}
