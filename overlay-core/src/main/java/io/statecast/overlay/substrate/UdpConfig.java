package io.statecast.overlay.substrate;

import java.util.Objects;

/**
 * Settings of a {@link UdpInterface}.
 *
 * @param host               address to bind and to advertise as {@code udp://host:port}; default
 *                           {@value #DEFAULT_HOST} (loopback: a node reachable from elsewhere must
 *                           name the address peers use)
 * @param port               port to bind, 0 for an ephemeral port (reported by
 *                           {@link UdpInterface#localAddress()}); default 0
 * @param receiveBufferBytes SO_RCVBUF; default {@value #DEFAULT_SOCKET_BUFFER_BYTES} (4 MiB): a
 *                           burst of datagrams is absorbed by the kernel while the I/O thread is
 *                           busy, instead of being lost. The kernel may cap it (Linux:
 *                           {@code net.core.rmem_max}); {@link UdpInterface#effectiveReceiveBufferBytes()}
 *                           reports what was granted. 4 KiB..256 MiB
 * @param sendBufferBytes    SO_SNDBUF; default {@value #DEFAULT_SOCKET_BUFFER_BYTES} (4 MiB), capped by
 *                           {@code net.core.wmem_max}. 4 KiB..256 MiB
 * @param maxDatagramBytes   largest datagram sent or accepted; larger ones are dropped and counted.
 *                           Default and upper limit {@value #MAX_UDP_PAYLOAD_BYTES} (the IPv4 UDP
 *                           payload limit); 1..65507
 * @param sendQueueBytes     bytes of datagrams waiting for the socket above which {@link UdpInterface#send}
 *                           drops (it never blocks); applies to the interface's send queue and to the
 *                           channel's buffer each; frames of at most 256
 *                           bytes (heartbeats, ACKs) may use a reserve of an eighth more, writable or
 *                           not; default {@value #DEFAULT_SEND_QUEUE_BYTES} (4 MiB).
 *                           64 KiB..1 GiB
 * @param bundleBytes        largest datagram into which small frames waiting together for one
 *                           destination are packed ({@link UdpBundle}); default
 *                           {@value #DEFAULT_BUNDLE_BYTES} (a 1,500-byte Ethernet MTU less the IPv4
 *                           and UDP headers, so a bundle is never fragmented); 0 sends one frame per
 *                           datagram. 0..65507
 */
public record UdpConfig(
        String host,
        int port,
        int receiveBufferBytes,
        int sendBufferBytes,
        int maxDatagramBytes,
        int sendQueueBytes,
        int bundleBytes) {

    /** Default of {@link #host()}. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Default of {@link #receiveBufferBytes()} and {@link #sendBufferBytes()}. */
    public static final int DEFAULT_SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;
    /** Largest UDP payload over IPv4: 65535 - 8 (UDP header) - 20 (IP header). */
    public static final int MAX_UDP_PAYLOAD_BYTES = 65_507;
    /** Default of {@link #sendQueueBytes()}. */
    public static final int DEFAULT_SEND_QUEUE_BYTES = 4 * 1024 * 1024;
    /** Default of {@link #bundleBytes()}. */
    public static final int DEFAULT_BUNDLE_BYTES = 1472;

    /** Validates every field, naming it and its limit on failure. */
    public UdpConfig {
        Objects.requireNonNull(host, "host");
        if (host.isEmpty()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port=" + port + " must be within 0..65535");
        }
        Limits.within("receiveBufferBytes", receiveBufferBytes, 4096, 256 * 1024 * 1024);
        Limits.within("sendBufferBytes", sendBufferBytes, 4096, 256 * 1024 * 1024);
        Limits.within("maxDatagramBytes", maxDatagramBytes, 1, MAX_UDP_PAYLOAD_BYTES);
        Limits.within("sendQueueBytes", sendQueueBytes, 64 * 1024, 1 << 30);
        Limits.within("bundleBytes", bundleBytes, 0, MAX_UDP_PAYLOAD_BYTES);
    }

    /** The documented defaults: loopback, ephemeral port. */
    public static UdpConfig defaults() {
        return new UdpConfig(DEFAULT_HOST, 0, DEFAULT_SOCKET_BUFFER_BYTES, DEFAULT_SOCKET_BUFFER_BYTES,
                MAX_UDP_PAYLOAD_BYTES, DEFAULT_SEND_QUEUE_BYTES, DEFAULT_BUNDLE_BYTES);
    }

    /** This configuration bound to {@code host:port}. */
    public UdpConfig withAddress(String host, int port) {
        return new UdpConfig(host, port, receiveBufferBytes, sendBufferBytes, maxDatagramBytes, sendQueueBytes, bundleBytes);
    }

    /** This configuration with another largest datagram. */
    public UdpConfig withMaxDatagramBytes(int bytes) {
        return new UdpConfig(host, port, receiveBufferBytes, sendBufferBytes, bytes, sendQueueBytes, bundleBytes);
    }

    /** This configuration with bundles of at most {@code bytes} (0: one frame per datagram). */
    public UdpConfig withBundleBytes(int bytes) {
        return new UdpConfig(host, port, receiveBufferBytes, sendBufferBytes, maxDatagramBytes, sendQueueBytes, bytes);
    }

    /** This configuration with other socket buffer sizes. */
    public UdpConfig withSocketBuffers(int receiveBytes, int sendBytes) {
        return new UdpConfig(host, port, receiveBytes, sendBytes, maxDatagramBytes, sendQueueBytes, bundleBytes);
    }
}
