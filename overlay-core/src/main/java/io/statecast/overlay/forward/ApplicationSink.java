package io.statecast.overlay.forward;

import io.statecast.overlay.message.OverlayMessage;

/** Where the forwarding engine delivers messages for the local application (in a socket: its receive queue). */
@FunctionalInterface
public interface ApplicationSink {
    /**
     * Takes one message. Never blocks.
     *
     * @return false if the message was refused (queue full)
     */
    boolean deliver(OverlayMessage message);
}
