package io.statecast.overlay.substrate;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.ProtocolMessage;

/**
 * The layer above an {@link Adapter}: the overlay node takes protocol messages, the forwarding
 * engine application messages (the blueprint's two adapter buffers). Called on an I/O thread or
 * the simulation thread; implementations hand work to their own executor and return.
 */
public interface AdapterListener {

    /** A decoded protocol message of this overlay. */
    void onProtocolMessage(ProtocolMessage message, SubstrateAddress from);

    /** A decoded application message of this overlay. */
    void onApplicationMessage(OverlayMessage message, SubstrateAddress from);
}
