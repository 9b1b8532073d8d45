package io.statecast.overlay.substrate;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link TcpInterface}.
 *
 * @param host                   address to bind and to advertise in the hello as {@code tcp://host:port};
 *                               must be an IP literal (peers check it without name lookups); default
 *                               {@value #DEFAULT_HOST}
 * @param port                   port to bind, 0 for an ephemeral port; default 0
 * @param maxFrameBytes          largest frame sent or accepted; a larger length prefix closes the
 *                               connection. Default {@value #DEFAULT_MAX_FRAME_BYTES} (the codec's default
 *                               maximum); 1..16 MiB
 * @param maxQueuedFrames        frames queued per peer while it is being connected to or its socket is
 *                               full; more are dropped and counted. Default {@value #DEFAULT_MAX_QUEUED_FRAMES};
 *                               1..1,000,000
 * @param maxQueuedBytes         bytes queued per peer, the same way; default {@value #DEFAULT_MAX_QUEUED_BYTES}
 *                               (4 MiB); must be at least {@code maxFrameBytes}, at most 1 GiB
 * @param writeBufferBytes       bytes a connection's Netty outbound buffer takes before further frames wait in
 *                               the peer queue (high-water mark; low is half). Default
 *                               {@value #DEFAULT_WRITE_BUFFER_BYTES} (1 MiB); 64 KiB..256 MiB
 * @param maxPeers               peers (destinations and identified inbound peers) tracked at once; default
 *                               {@value #DEFAULT_MAX_PEERS}; 1..1,000,000
 * @param maxInboundConnections  inbound connections open at once; more are closed on accept. Default
 *                               {@value #DEFAULT_MAX_INBOUND_CONNECTIONS}; 1..1,000,000
 * @param connectTimeout         limit of one connection attempt; default 3 s; 10 ms..5 min
 * @param helloTimeout           an inbound connection that has not sent its hello by then is closed; default
 *                               5 s; 10 ms..5 min
 * @param reconnectBackoffMin    wait after the first failed attempt, doubled after each further failure;
 *                               default 50 ms; 1 ms..1 min, at most {@code reconnectBackoffMax}
 * @param reconnectBackoffMax    longest wait between attempts; default 2 s; 1 ms..10 min
 * @param maxConnectAttempts     consecutive failed attempts after which the peer's queued frames are dropped
 *                               (counted {@link InterfaceMetrics.SendDrop#CONNECT_FAILED}); the next send
 *                               starts over. Default {@value #DEFAULT_MAX_CONNECT_ATTEMPTS}; 1..1000
 */
public record TcpConfig(
        String host,
        int port,
        int maxFrameBytes,
        int maxQueuedFrames,
        int maxQueuedBytes,
        int writeBufferBytes,
        int maxPeers,
        int maxInboundConnections,
        Duration connectTimeout,
        Duration helloTimeout,
        Duration reconnectBackoffMin,
        Duration reconnectBackoffMax,
        int maxConnectAttempts) {

    /** Default of {@link #host()}. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Default of {@link #maxFrameBytes()}. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 64 * 1024;
    /** Upper limit of {@link #maxFrameBytes()}. */
    public static final int MAX_FRAME_BYTES_LIMIT = 16 * 1024 * 1024;
    /** Default of {@link #maxQueuedFrames()}. */
    public static final int DEFAULT_MAX_QUEUED_FRAMES = 4096;
    /** Default of {@link #maxQueuedBytes()}. */
    public static final int DEFAULT_MAX_QUEUED_BYTES = 4 * 1024 * 1024;
    /** Default of {@link #writeBufferBytes()}. */
    public static final int DEFAULT_WRITE_BUFFER_BYTES = 1024 * 1024;
    /** Default of {@link #maxPeers()}. */
    public static final int DEFAULT_MAX_PEERS = 1024;
    /** Default of {@link #maxInboundConnections()}. */
    public static final int DEFAULT_MAX_INBOUND_CONNECTIONS = 1024;
    /** Default of {@link #maxConnectAttempts()}. */
    public static final int DEFAULT_MAX_CONNECT_ATTEMPTS = 10;

    /** Validates every field and their combinations, naming them and the limit on failure. */
    public TcpConfig {
        Objects.requireNonNull(host, "host");
        if (io.netty.util.NetUtil.createByteArrayFromIpAddressString(host) == null) {
            throw new IllegalArgumentException("host='" + host + "' must be an IP literal (it is advertised to peers)");
        }
        Limits.within("port", port, 0, 65535);
        Limits.within("maxFrameBytes", maxFrameBytes, 1, MAX_FRAME_BYTES_LIMIT);
        Limits.within("maxQueuedFrames", maxQueuedFrames, 1, 1_000_000);
        Limits.within("maxQueuedBytes", maxQueuedBytes, 1, 1 << 30);
        if (maxQueuedBytes < maxFrameBytes) {
            throw new IllegalArgumentException("maxQueuedBytes=" + maxQueuedBytes
                    + " needs to be at least maxFrameBytes=" + maxFrameBytes + " (a largest frame must fit the queue)");
        }
        Limits.within("writeBufferBytes", writeBufferBytes, 64 * 1024, 256 * 1024 * 1024);
        Limits.within("maxPeers", maxPeers, 1, 1_000_000);
        Limits.within("maxInboundConnections", maxInboundConnections, 1, 1_000_000);
        Limits.within("connectTimeout", connectTimeout, Duration.ofMillis(10), Duration.ofMinutes(5));
        Limits.within("helloTimeout", helloTimeout, Duration.ofMillis(10), Duration.ofMinutes(5));
        Limits.within("reconnectBackoffMin", reconnectBackoffMin, Duration.ofMillis(1), Duration.ofMinutes(1));
        Limits.within("reconnectBackoffMax", reconnectBackoffMax, Duration.ofMillis(1), Duration.ofMinutes(10));
        if (reconnectBackoffMin.compareTo(reconnectBackoffMax) > 0) {
            throw new IllegalArgumentException("reconnectBackoffMin=" + reconnectBackoffMin
                    + " needs to be at most reconnectBackoffMax=" + reconnectBackoffMax);
        }
        Limits.within("maxConnectAttempts", maxConnectAttempts, 1, 1000);
    }

    /** The documented defaults: loopback, ephemeral port. */
    public static TcpConfig defaults() {
        return new TcpConfig(DEFAULT_HOST, 0, DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_QUEUED_FRAMES,
                DEFAULT_MAX_QUEUED_BYTES, DEFAULT_WRITE_BUFFER_BYTES, DEFAULT_MAX_PEERS,
                DEFAULT_MAX_INBOUND_CONNECTIONS, Duration.ofSeconds(3), Duration.ofSeconds(5),
                Duration.ofMillis(50), Duration.ofSeconds(2), DEFAULT_MAX_CONNECT_ATTEMPTS);
    }

    /** This configuration bound to {@code host:port}. */
    public TcpConfig withAddress(String host, int port) {
        return new TcpConfig(host, port, maxFrameBytes, maxQueuedFrames, maxQueuedBytes, writeBufferBytes,
                maxPeers, maxInboundConnections, connectTimeout, helloTimeout, reconnectBackoffMin,
                reconnectBackoffMax, maxConnectAttempts);
    }

    /** This configuration with another largest frame. */
    public TcpConfig withMaxFrameBytes(int bytes) {
        return new TcpConfig(host, port, bytes, maxQueuedFrames, Math.max(maxQueuedBytes, bytes), writeBufferBytes,
                maxPeers, maxInboundConnections, connectTimeout, helloTimeout, reconnectBackoffMin,
                reconnectBackoffMax, maxConnectAttempts);
    }

    /** This configuration with other per-peer queue bounds. */
    public TcpConfig withQueue(int frames, int bytes) {
        return new TcpConfig(host, port, maxFrameBytes, frames, bytes, writeBufferBytes, maxPeers,
                maxInboundConnections, connectTimeout, helloTimeout, reconnectBackoffMin, reconnectBackoffMax,
                maxConnectAttempts);
    }

    /** This configuration with another reconnection policy. */
    public TcpConfig withReconnect(Duration backoffMin, Duration backoffMax, int attempts) {
        return new TcpConfig(host, port, maxFrameBytes, maxQueuedFrames, maxQueuedBytes, writeBufferBytes, maxPeers,
                maxInboundConnections, connectTimeout, helloTimeout, backoffMin, backoffMax, attempts);
    }

    /** This configuration with other connect and hello timeouts. */
    public TcpConfig withTimeouts(Duration connect, Duration hello) {
        return new TcpConfig(host, port, maxFrameBytes, maxQueuedFrames, maxQueuedBytes, writeBufferBytes, maxPeers,
                maxInboundConnections, connect, hello, reconnectBackoffMin, reconnectBackoffMax, maxConnectAttempts);
    }

    /** This configuration with other peer and inbound-connection limits. */
    public TcpConfig withLimits(int peers, int inboundConnections) {
        return new TcpConfig(host, port, maxFrameBytes, maxQueuedFrames, maxQueuedBytes, writeBufferBytes, peers,
                inboundConnections, connectTimeout, helloTimeout, reconnectBackoffMin, reconnectBackoffMax,
                maxConnectAttempts);
    }
}
