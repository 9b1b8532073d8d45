package io.statecast.specserver;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds on everything a client can make the spec server hold or do. Every value is checked when
 * the record is built; the message names the setting, the value and the bound.
 *
 * @param maxSpecBytes largest accepted spec document, in bytes; also the largest request body.
 *     Default {@value #DEFAULT_MAX_SPEC_BYTES} (256 KiB): the blueprint's specs are a few KiB, and
 *     a node downloads the whole document before it can process a message.
 * @param maxHeaderBytes largest total size of the request headers, in bytes; larger gets 431.
 *     Default {@value #DEFAULT_MAX_HEADER_BYTES}.
 * @param maxUriBytes longest request target, in bytes; longer gets 414. Default
 *     {@value #DEFAULT_MAX_URI_BYTES}: the API's paths are short.
 * @param maxConnections most simultaneously open connections; one more is answered 503 and closed.
 *     Default {@value #DEFAULT_MAX_CONNECTIONS}.
 * @param requestTimeout time a connection may take, from being opened or from its previous
 *     response, to deliver one complete request (head and body); a request head followed by a slow
 *     body gets 408, an idle or stalled connection is closed. Also bounds how long a response may
 *     take to be written. Default 10 s.
 * @param processingTimeout time the server may spend on one request after receiving it
 *     (validation, disk); past it the client gets 503 and the connection is closed. Default 10 s.
 * @param workerThreads threads that validate documents and touch the disk, off the I/O event loop.
 *     Default {@value #DEFAULT_WORKER_THREADS}.
 * @param workerQueue requests that may wait for a worker; when full the client gets 503 with
 *     Retry-After. Default {@value #DEFAULT_WORKER_QUEUE}.
 * @param maxServices most services stored; creating one more gets 507. Default
 *     {@value #DEFAULT_MAX_SERVICES}, which with the default spec size bounds the directory at 1 GiB.
 * @param maxConnectionsPerAddress most simultaneously open connections from one client address (an
 *     IPv6 client is counted by its /64 prefix, which one host usually owns whole); one more is
 *     answered 503 and closed, so one client cannot take every connection. Default
 *     {@value #DEFAULT_MAX_CONNECTIONS_PER_ADDRESS}.
 * @param headerTimeout time a connection may take, from being opened or from its previous response,
 *     to deliver a complete request head; past it the connection is closed. Bounds how long a client
 *     that sends a head slowly (or nothing) holds a connection; the whole request stays bounded by
 *     {@code requestTimeout}, whichever expires first. Default 5 s.
 * @param servicesPerPage services listed on one page of the HTML catalogue ({@code GET /?page=N}).
 *     Default {@value #DEFAULT_SERVICES_PER_PAGE}.
 */
public record SpecServerLimits(
        int maxSpecBytes,
        int maxHeaderBytes,
        int maxUriBytes,
        int maxConnections,
        Duration requestTimeout,
        Duration processingTimeout,
        int workerThreads,
        int workerQueue,
        int maxServices,
        int maxConnectionsPerAddress,
        Duration headerTimeout,
        int servicesPerPage) {

    /** Default {@link #maxSpecBytes}: 256 KiB. */
    public static final int DEFAULT_MAX_SPEC_BYTES = 256 * 1024;
    /** Default {@link #maxHeaderBytes}: 8 KiB, the common limit of HTTP servers. */
    public static final int DEFAULT_MAX_HEADER_BYTES = 8 * 1024;
    /** Default {@link #maxUriBytes}. */
    public static final int DEFAULT_MAX_URI_BYTES = 2048;
    /** Default {@link #maxConnections}. */
    public static final int DEFAULT_MAX_CONNECTIONS = 256;
    /** Default {@link #maxConnectionsPerAddress}. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 16;
    /** Default {@link #headerTimeout}, in milliseconds. */
    public static final long DEFAULT_HEADER_TIMEOUT_MS = 5_000;
    /** Default {@link #servicesPerPage}. */
    public static final int DEFAULT_SERVICES_PER_PAGE = 50;
    /** Default {@link #requestTimeout}, in milliseconds. */
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
    /** Default {@link #processingTimeout}, in milliseconds. */
    public static final long DEFAULT_PROCESSING_TIMEOUT_MS = 10_000;
    /** Default {@link #workerThreads}: validation is CPU-bound and uploads are rare. */
    public static final int DEFAULT_WORKER_THREADS = 2;
    /** Default {@link #workerQueue}. */
    public static final int DEFAULT_WORKER_QUEUE = 32;
    /** Default {@link #maxServices}. */
    public static final int DEFAULT_MAX_SERVICES = 4096;

    /** Hard ceiling on {@link #maxSpecBytes}: the server holds a whole document in memory. */
    public static final int MAX_SPEC_BYTES_CEILING = 64 * 1024 * 1024;

    /** All defaults. */
    public static final SpecServerLimits DEFAULTS = new SpecServerLimits(
            DEFAULT_MAX_SPEC_BYTES,
            DEFAULT_MAX_HEADER_BYTES,
            DEFAULT_MAX_URI_BYTES,
            DEFAULT_MAX_CONNECTIONS,
            Duration.ofMillis(DEFAULT_REQUEST_TIMEOUT_MS),
            Duration.ofMillis(DEFAULT_PROCESSING_TIMEOUT_MS),
            DEFAULT_WORKER_THREADS,
            DEFAULT_WORKER_QUEUE,
            DEFAULT_MAX_SERVICES,
            DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            Duration.ofMillis(DEFAULT_HEADER_TIMEOUT_MS),
            DEFAULT_SERVICES_PER_PAGE);

    /** Checks every bound, naming the setting that is out of range. */
    public SpecServerLimits {
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(processingTimeout, "processingTimeout");
        Objects.requireNonNull(headerTimeout, "headerTimeout");
        range("maxSpecBytes", maxSpecBytes, 1, MAX_SPEC_BYTES_CEILING);
        range("maxHeaderBytes", maxHeaderBytes, 256, 1024 * 1024);
        range("maxUriBytes", maxUriBytes, 64, 64 * 1024);
        range("maxConnections", maxConnections, 1, 100_000);
        range("workerThreads", workerThreads, 1, 256);
        range("workerQueue", workerQueue, 1, 100_000);
        range("maxServices", maxServices, 1, 10_000_000);
        range("maxConnectionsPerAddress", maxConnectionsPerAddress, 1, 100_000);
        range("servicesPerPage", servicesPerPage, 1, 1000);
        positive("headerTimeout", headerTimeout);
        positive("requestTimeout", requestTimeout);
        positive("processingTimeout", processingTimeout);
    }

    private static void range(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + "=" + value + " is outside [" + min + ", " + max + "]");
        }
    }

    private static void positive(String name, Duration value) {
        if (value.isNegative() || value.isZero() || value.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException(name + "=" + value + " must be > 0 and <= PT1H");
        }
    }

    /** @param value new {@link #maxSpecBytes} @return a copy with it */
    public SpecServerLimits withMaxSpecBytes(int value) {
        return new SpecServerLimits(value, maxHeaderBytes, maxUriBytes, maxConnections, requestTimeout, processingTimeout, workerThreads, workerQueue, maxServices, maxConnectionsPerAddress, headerTimeout, servicesPerPage);
    }

    /** @param value new {@link #maxHeaderBytes} @return a copy with it */
    public SpecServerLimits withMaxHeaderBytes(int value) {
        return new SpecServerLimits(maxSpecBytes, value, maxUriBytes, maxConnections, requestTimeout, processingTimeout, workerThreads, workerQueue, maxServices, maxConnectionsPerAddress, headerTimeout, servicesPerPage);
    }

    /** @param value new {@link #maxUriBytes} @return a copy with it */
    public SpecServerLimits withMaxUriBytes(int value) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, value, maxConnections, requestTimeout, processingTimeout, workerThreads, workerQueue, maxServices, maxConnectionsPerAddress, headerTimeout, servicesPerPage);
    }

    /** @param value new {@link #maxConnections} @return a copy with it */
    public SpecServerLimits withMaxConnections(int value) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, maxUriBytes, value, requestTimeout, processingTimeout, workerThreads, workerQueue, maxServices, maxConnectionsPerAddress, headerTimeout, servicesPerPage);
    }

    /** @param value new {@link #requestTimeout} @return a copy with it */
    public SpecServerLimits withRequestTimeout(Duration value) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, maxUriBytes, maxConnections, value, processingTimeout, workerThreads, workerQueue, maxServices, maxConnectionsPerAddress, headerTimeout, servicesPerPage);
    }

    /** @param value new {@link #processingTimeout} @return a copy with it */
    public SpecServerLimits withProcessingTimeout(Duration value) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, maxUriBytes, maxConnections, requestTimeout, value, workerThreads, workerQueue, maxServices, maxConnectionsPerAddress, headerTimeout, servicesPerPage);
    }

    /** @param threads new {@link #workerThreads} @param queue new {@link #workerQueue} @return a copy with them */
    public SpecServerLimits withWorkers(int threads, int queue) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, maxUriBytes, maxConnections, requestTimeout, processingTimeout, threads, queue, maxServices, maxConnectionsPerAddress, headerTimeout, servicesPerPage);
    }

    /** @param value new {@link #maxServices} @return a copy with it */
    public SpecServerLimits withMaxServices(int value) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, maxUriBytes, maxConnections, requestTimeout, processingTimeout, workerThreads, workerQueue, value, maxConnectionsPerAddress, headerTimeout, servicesPerPage);
    }

    /** @param value new {@link #maxConnectionsPerAddress} @return a copy with it */
    public SpecServerLimits withMaxConnectionsPerAddress(int value) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, maxUriBytes, maxConnections, requestTimeout, processingTimeout, workerThreads, workerQueue, maxServices, value, headerTimeout, servicesPerPage);
    }

    /** @param value new {@link #headerTimeout} @return a copy with it */
    public SpecServerLimits withHeaderTimeout(Duration value) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, maxUriBytes, maxConnections, requestTimeout, processingTimeout, workerThreads, workerQueue, maxServices, maxConnectionsPerAddress, value, servicesPerPage);
    }

    /** @param value new {@link #servicesPerPage} @return a copy with it */
    public SpecServerLimits withServicesPerPage(int value) {
        return new SpecServerLimits(maxSpecBytes, maxHeaderBytes, maxUriBytes, maxConnections, requestTimeout, processingTimeout, workerThreads, workerQueue, maxServices, maxConnectionsPerAddress, headerTimeout, value);
    }
}
