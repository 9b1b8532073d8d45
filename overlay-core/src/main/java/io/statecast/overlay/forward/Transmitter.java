package io.statecast.overlay.forward;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.OverlayMessage;

/** Where the forwarding engine puts one copy of a message on a substrate (in a socket: the adapter). */
@FunctionalInterface
public interface Transmitter {
    /**
     * Sends one copy. Never blocks.
     *
     * @return false if it was dropped at once
     */
    boolean transmit(SubstrateAddress to, OverlayMessage message);
}
