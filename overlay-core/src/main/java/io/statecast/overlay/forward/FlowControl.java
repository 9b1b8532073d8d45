package io.statecast.overlay.forward;

import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.SendWindowException;
import io.statecast.overlay.socket.SendWindowStatistics;

/**
 * Back-pressure toward the application: whether the application may hand its socket one more
 * data message of a service now, or must wait until it may. The socket asks this and nothing
 * else before such a send; the send window ({@code overlay.sendWindow}), its congestion response
 * and the store's room for instances all live behind it, on the store's side
 * ({@link MessageStorePort#flowControl}). Without a store nothing waits ({@link #none}).
 *
 * <p>Every method is thread-safe: several application threads may send on one socket at once,
 * and they share its window.
 */
public interface FlowControl {

    /**
     * Whether the application's data messages of {@code serviceId} wait for room here at all.
     * Called per message: a lookup.
     */
    boolean governs(int serviceId);

    /**
     * Returns once the application may send one more data message of {@code serviceId}: at once
     * if the service is not governed, if there is room, or where the calling thread must not
     * wait (a virtual clock, the socket's timer thread); otherwise after waiting, at most
     * {@link OverlayConfig.SendWindow#maxWaitMs()}. When it returns true it has reserved a place
     * for the message until {@link #release} (so concurrent senders cannot together pass the
     * limit): call that once the message went to the store, or failed to.
     *
     * @return whether a place was reserved
     * @throws SendWindowException if there was no room within the deadline, or the thread was
     *                             interrupted while waiting (its flag set again); nothing reserved
     */
    boolean acquire(int serviceId);

    /** Gives back the place a successful {@link #acquire} reserved for a message of {@code serviceId}. */
    void release(int serviceId);

    /** What the flow control did so far (waits, time waited, sends that gave up, window). */
    SendWindowStatistics statistics();

    /**
     * Flow control that never holds a send back (no MessageStore, or one without it); its
     * statistics report {@code window} as the window.
     */
    static FlowControl none(int window) {
        SendWindowStatistics idle = new SendWindowStatistics(0, 0, 0, 0, window);
        return new FlowControl() {
            @Override
            public boolean governs(int serviceId) {
                return false;
            }

            @Override
            public boolean acquire(int serviceId) {
                return false;
            }

            @Override
            public void release(int serviceId) {
            }

            @Override
            public SendWindowStatistics statistics() {
                return idle;
            }
        };
    }
}
