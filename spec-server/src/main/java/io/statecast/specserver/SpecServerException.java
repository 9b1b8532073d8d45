package io.statecast.specserver;

/** The spec server could not start: the directory cannot be used or the port cannot be bound. */
public final class SpecServerException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, naming the directory or address
     * @param cause the underlying failure
     */
    public SpecServerException(String message, Throwable cause) {
        super(message, cause);
    }
}
