package io.statecast.overlay.socket;

/**
 * {@link OverlaySocket#join()} did not make the node part of an overlay within
 * {@code overlay.join.timeoutMs}. The message says what the node saw (its state, neighbours and
 * buddies) and what to check.
 */
public final class OverlayJoinException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what happened and what to check */
    public OverlayJoinException(String message) {
        super(message);
    }
}
