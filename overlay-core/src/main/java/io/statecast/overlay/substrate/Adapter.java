package io.statecast.overlay.substrate;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.WireMessage;
import java.io.IOException;
import java.util.List;

/**
 * The blueprint's <em>adapter</em>: owns the substrate interfaces, the codec, the address
 * repository and the timer service. (Stub: the substrate work fills this in.)
 */
public final class Adapter implements AutoCloseable {

    /**
     * @param codec      encodes outgoing and decodes incoming frames
     * @param timers     the timer service every layer of this node uses
     * @param interfaces the substrate interfaces, at least one
     */
    public Adapter(MessageCodec codec, TimerService timers, List<SubstrateInterface> interfaces) {
        throw new UnsupportedOperationException("TODO");
    }

    /** Starts every interface; decoded messages go to {@code listener}. */
    public void start(AdapterListener listener) throws IOException {
        throw new UnsupportedOperationException("TODO");
    }

    /** The local substrate addresses, one per interface, once started. */
    public List<SubstrateAddress> localAddresses() {
        throw new UnsupportedOperationException("TODO");
    }

    /** Encodes and sends; returns false if dropped (counted). */
    public boolean send(SubstrateAddress to, WireMessage message) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The timer service. */
    public TimerService timers() {
        throw new UnsupportedOperationException("TODO");
    }

    @Override
    public void close() {
    }
}
