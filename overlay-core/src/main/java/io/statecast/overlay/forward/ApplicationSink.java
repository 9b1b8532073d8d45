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

    /**
     * Takes one message a MessageStore hands to the application (on the store's own thread,
     * never an I/O thread). Such a message may already be acknowledged to its sender, so a full
     * queue must not lose it: the sink may wait a bounded time for room, which holds the store
     * back, so that its own queues refuse new messages before their instances acknowledge them.
     * The sink may also put off waking the application until the store's next {@link #flush()}.
     * Default: {@link #deliver}.
     *
     * @return false if the message was refused (queue still full, or the wait was interrupted)
     */
    default boolean deliverFromStore(OverlayMessage message) {
        return deliver(message);
    }

    /**
     * Wakes the application for what {@link #deliverFromStore} delivered since the last flush; a
     * store calls it after each batch of work. Default: nothing.
     */
    default void flush() {
    }

    /** Whether a message offered now would be taken (the queue has room). Default: true. */
    default boolean hasRoom() {
        return true;
    }

    /** The longest {@link #deliverFromStore} waits for room, in nanoseconds (0: never). Default 0. */
    default long deliveryWaitNanos() {
        return 0;
    }
}
