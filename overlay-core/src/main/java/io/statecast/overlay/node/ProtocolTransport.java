package io.statecast.overlay.node;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;

/**
 * How an {@link OverlayNode} sends its protocol messages: in a socket, the adapter (which frames
 * every message with the overlay-ID hash); in tests, anything that captures them.
 */
@FunctionalInterface
public interface ProtocolTransport {

    /**
     * Sends one protocol message. Never blocks.
     *
     * @return false if the message was dropped at once (counted by the transport)
     */
    boolean send(SubstrateAddress to, ProtocolMessage message);
}
