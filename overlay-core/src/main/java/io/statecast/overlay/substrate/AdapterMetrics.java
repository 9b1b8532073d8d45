package io.statecast.overlay.substrate;

import io.statecast.overlay.message.DecodeException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of an {@link Adapter}: messages received by kind, frames dropped on receipt by cause
 * (the codec's {@link DecodeException.Reason}s and the adapter's own), messages sent, and messages
 * dropped on sending by cause. Updated from I/O threads; exposed by name through
 * {@link #snapshot()}. Per-interface counters are in each interface's {@link InterfaceMetrics}.
 */
public final class AdapterMetrics {

    /** Why a received frame was dropped by the adapter, beyond the codec's reasons. */
    public enum ReceiveDrop {
        /** The codec threw something other than a {@link DecodeException}: a codec bug, logged. */
        CODEC_FAILURE,
        /** Too short to carry an authentication trailer (overlays with a key only). */
        AUTH_TRUNCATED,
        /** Sealed under a key id this node's key file does not hold (or not sealed at all). */
        AUTH_UNKNOWN_KEY,
        /** The MAC does not match: forged, corrupted, or sealed with another key of the same id. */
        AUTH_BAD_MAC,
        /** Authentic, but already received, or too old for the sender's replay window. */
        AUTH_REPLAY
    }

    /** Why {@link Adapter#send} dropped a message. */
    public enum SendDrop {
        /** The adapter is not started or already closed. */
        CLOSED,
        /** No interface of the destination's scheme. */
        NO_INTERFACE,
        /** The encoded message exceeds the codec's largest frame. */
        TOO_LARGE,
        /** The codec refused to encode the message. */
        ENCODE_FAILED,
        /** The interface dropped the frame (see its {@link InterfaceMetrics}). */
        INTERFACE_REFUSED
    }

    private final LongAdder protocolReceived = new LongAdder();
    private final LongAdder applicationReceived = new LongAdder();
    private final LongAdder listenerFailures = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final LongAdder[] decodeDrops = adders(DecodeException.Reason.values().length);
    private final LongAdder[] receiveDrops = adders(ReceiveDrop.values().length);
    private final LongAdder[] sendDrops = adders(SendDrop.values().length);

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    void recordProtocolReceived() {
        protocolReceived.increment();
    }

    void recordApplicationReceived() {
        applicationReceived.increment();
    }

    void recordListenerFailure() {
        listenerFailures.increment();
    }

    void recordSent() {
        sent.increment();
    }

    void recordDrop(DecodeException.Reason reason) {
        decodeDrops[reason.ordinal()].increment();
    }

    void recordDrop(ReceiveDrop cause) {
        receiveDrops[cause.ordinal()].increment();
    }

    void recordDrop(SendDrop cause) {
        sendDrops[cause.ordinal()].increment();
    }

    /** Protocol messages decoded and handed to the listener. */
    public long protocolReceived() {
        return protocolReceived.sum();
    }

    /** Application messages decoded and handed to the listener. */
    public long applicationReceived() {
        return applicationReceived.sum();
    }

    /** Messages of both kinds handed to the listener. */
    public long received() {
        return protocolReceived() + applicationReceived();
    }

    /** Times the listener threw (the message counts as received). */
    public long listenerFailures() {
        return listenerFailures.sum();
    }

    /** Messages encoded and accepted by an interface. */
    public long sent() {
        return sent.sum();
    }

    /** Received frames the codec refused for {@code reason}. */
    public long dropped(DecodeException.Reason reason) {
        return decodeDrops[reason.ordinal()].sum();
    }

    /** Received frames dropped for {@code cause}. */
    public long dropped(ReceiveDrop cause) {
        return receiveDrops[cause.ordinal()].sum();
    }

    /** Messages {@link Adapter#send} dropped for {@code cause}. */
    public long dropped(SendDrop cause) {
        return sendDrops[cause.ordinal()].sum();
    }

    /** Received frames dropped for any cause. */
    public long receiveDropsTotal() {
        long n = 0;
        for (LongAdder a : decodeDrops) {
            n += a.sum();
        }
        for (LongAdder a : receiveDrops) {
            n += a.sum();
        }
        return n;
    }

    /** Sent messages dropped for any cause. */
    public long sendDropsTotal() {
        long n = 0;
        for (LongAdder a : sendDrops) {
            n += a.sum();
        }
        return n;
    }

    /**
     * Every counter by name, sorted: {@code rx.protocol}, {@code rx.application},
     * {@code rx.listener_failures}, {@code rx.dropped.<reason>} (codec reasons,
     * {@code codec_failure} and the authentication causes {@code auth_truncated}, {@code auth_unknown_key},
     * {@code auth_bad_mac}, {@code auth_replay}), {@code tx.sent}, {@code tx.dropped.<cause>}; names in lower case.
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        m.put("rx.protocol", protocolReceived());
        m.put("rx.application", applicationReceived());
        m.put("rx.listener_failures", listenerFailures());
        for (DecodeException.Reason r : DecodeException.Reason.values()) {
            m.put("rx.dropped." + r.name().toLowerCase(Locale.ROOT), dropped(r));
        }
        for (ReceiveDrop d : ReceiveDrop.values()) {
            m.put("rx.dropped." + d.name().toLowerCase(Locale.ROOT), dropped(d));
        }
        m.put("tx.sent", sent());
        for (SendDrop d : SendDrop.values()) {
            m.put("tx.dropped." + d.name().toLowerCase(Locale.ROOT), dropped(d));
        }
        return m;
    }

    @Override
    public String toString() {
        Map<String, Long> m = snapshot();
        m.values().removeIf(v -> v == 0);
        return "AdapterMetrics" + m;
    }
}
