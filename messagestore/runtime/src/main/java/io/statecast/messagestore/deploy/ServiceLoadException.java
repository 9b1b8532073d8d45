package io.statecast.messagestore.deploy;

/**
 * A service could not be loaded: its source could not be read (unknown scheme, missing file,
 * over the size limit), the spec was refused (the message lists its problems), its ServiceID is
 * quarantined, or the warm start found it failing.
 */
public final class ServiceLoadException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what went wrong, naming the source */
    public ServiceLoadException(String message) {
        super(message);
    }

    /** @param message what went wrong, naming the source; @param cause the underlying problem */
    public ServiceLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
