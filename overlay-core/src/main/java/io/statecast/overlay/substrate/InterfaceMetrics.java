package io.statecast.overlay.substrate;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one {@link SubstrateInterface}: frames and bytes each way, frames dropped by cause,
 * and connection events for connection-oriented substrates. Safe to update from any thread;
 * readers see eventually consistent values. Exposed by name through {@link #snapshot()}.
 *
 * <p>The recording methods are public so that interfaces outside this package can use the same
 * counters; only the interface that owns an instance should call them.
 */
public final class InterfaceMetrics {

    /** Why an outgoing frame was not sent. */
    public enum SendDrop {
        /** The interface is closed or not started. */
        CLOSED,
        /** The destination's scheme is not this interface's. */
        WRONG_SCHEME,
        /** The frame exceeds the interface's largest frame. */
        TOO_LARGE,
        /** The destination's host could not be resolved. */
        UNRESOLVED,
        /** The channel's outbound buffer is above its high-water mark. */
        NOT_WRITABLE,
        /** The per-peer outbound queue is full. */
        QUEUE_FULL,
        /** A new peer would exceed the interface's peer limit. */
        PEER_LIMIT,
        /** Queued for a peer that could not be connected to; discarded after the last attempt. */
        CONNECT_FAILED,
        /** Accepted, then the write failed (connection lost, socket error). */
        WRITE_FAILED,
        /** The in-memory network holds its maximum of frames in flight. */
        IN_FLIGHT_LIMIT
    }

    /** Why an incoming frame (or connection) was refused. */
    public enum ReceiveDrop {
        /** Larger than the interface's largest frame (a TCP length prefix, or a datagram). */
        TOO_LARGE,
        /** Framing is corrupt; the connection was closed. */
        BAD_FRAMING,
        /** The first frame of a TCP connection is not a valid hello; the connection was closed. */
        BAD_HELLO,
        /** No hello within the configured time; the connection was closed. */
        HELLO_TIMEOUT,
        /** Arrived while the interface was closing or not yet started. */
        CLOSED,
        /** The frame receiver threw; the frame is considered consumed. */
        RECEIVER_ERROR,
        /** A well-framed frame the layer above could not decode; the connection was closed (TCP). */
        UNDECODABLE,
        /**
         * A bulk (data) frame shed because the receiver had fallen behind and the interface's
         * backlog of bulk frames was full; control frames are never shed for this (UDP).
         */
        BACKLOG_FULL,
        /** A bundle of frames ({@code UdpBundle}) that is malformed: dropped whole (UDP). */
        BAD_BUNDLE
    }

    /** Connection life-cycle events (TCP). */
    public enum ConnectionEvent {
        /** An inbound connection was accepted. */
        ACCEPTED,
        /** An inbound connection was refused because the inbound limit was reached. */
        REFUSED_LIMIT,
        /** An outbound connection was established. */
        CONNECTED,
        /** An outbound connection attempt failed. */
        CONNECT_FAILED,
        /** A connection (either direction) closed for any reason. */
        CLOSED,
        /** A connection was closed by this side because the peer violated the framing. */
        DISCONNECTED_PEER
    }

    private final LongAdder framesSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder framesReceived = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder[] sendDrops = adders(SendDrop.values().length);
    private final LongAdder[] receiveDrops = adders(ReceiveDrop.values().length);
    private final LongAdder[] connectionEvents = adders(ConnectionEvent.values().length);

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** Records one frame handed to the substrate. */
    public void recordSent(int bytes) {
        framesSent.increment();
        bytesSent.add(bytes);
    }

    /** Records one frame received from the substrate and handed to the receiver. */
    public void recordReceived(int bytes) {
        framesReceived.increment();
        bytesReceived.add(bytes);
    }

    /** Records one outgoing frame dropped. */
    public void recordDrop(SendDrop cause) {
        sendDrops[cause.ordinal()].increment();
    }

    /** Records one incoming frame (or connection) refused. */
    public void recordDrop(ReceiveDrop cause) {
        receiveDrops[cause.ordinal()].increment();
    }

    /** Records one connection event. */
    public void record(ConnectionEvent event) {
        connectionEvents[event.ordinal()].increment();
    }

    /** Frames handed to the substrate. */
    public long framesSent() {
        return framesSent.sum();
    }

    /** Bytes handed to the substrate (frame bytes, without TCP length prefixes). */
    public long bytesSent() {
        return bytesSent.sum();
    }

    /** Frames received and handed to the receiver. */
    public long framesReceived() {
        return framesReceived.sum();
    }

    /** Bytes of {@link #framesReceived()}. */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /** Outgoing frames dropped for {@code cause}. */
    public long dropped(SendDrop cause) {
        return sendDrops[cause.ordinal()].sum();
    }

    /** Incoming frames refused for {@code cause}. */
    public long dropped(ReceiveDrop cause) {
        return receiveDrops[cause.ordinal()].sum();
    }

    /** How often {@code event} happened. */
    public long count(ConnectionEvent event) {
        return connectionEvents[event.ordinal()].sum();
    }

    /** Outgoing frames dropped for any cause. */
    public long sendDropsTotal() {
        long n = 0;
        for (LongAdder a : sendDrops) {
            n += a.sum();
        }
        return n;
    }

    /** Incoming frames refused for any cause. */
    public long receiveDropsTotal() {
        long n = 0;
        for (LongAdder a : receiveDrops) {
            n += a.sum();
        }
        return n;
    }

    /**
     * Every counter by name, sorted: {@code tx.frames}, {@code tx.bytes}, {@code rx.frames},
     * {@code rx.bytes}, {@code tx.dropped.<cause>}, {@code rx.dropped.<cause>},
     * {@code conn.<event>} (causes and events in lower case).
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        m.put("tx.frames", framesSent());
        m.put("tx.bytes", bytesSent());
        m.put("rx.frames", framesReceived());
        m.put("rx.bytes", bytesReceived());
        for (SendDrop d : SendDrop.values()) {
            m.put("tx.dropped." + d.name().toLowerCase(Locale.ROOT), dropped(d));
        }
        for (ReceiveDrop d : ReceiveDrop.values()) {
            m.put("rx.dropped." + d.name().toLowerCase(Locale.ROOT), dropped(d));
        }
        for (ConnectionEvent e : ConnectionEvent.values()) {
            m.put("conn." + e.name().toLowerCase(Locale.ROOT), count(e));
        }
        return m;
    }

    @Override
    public String toString() {
        Map<String, Long> m = snapshot();
        m.values().removeIf(v -> v == 0);
        return "InterfaceMetrics" + m;
    }
}
