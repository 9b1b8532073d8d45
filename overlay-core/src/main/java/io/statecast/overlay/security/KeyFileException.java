package io.statecast.overlay.security;

/**
 * An overlay key file that cannot be used: unreadable, too large, or not in the format
 * {@link OverlayKeys#parse} documents. The message names the file and, where there is one, the
 * line, and says what is wrong; it never contains key material.
 */
public final class KeyFileException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, naming the file */
    public KeyFileException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong, naming the file
     * @param cause   the I/O error behind it
     */
    public KeyFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
