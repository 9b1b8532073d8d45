package io.statecast.examples.node;

/** A control line that is not a valid command; the message says what is wrong with it. */
public final class ControlException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, for the {@code ERR} line */
    public ControlException(String message) {
        super(message);
    }
}
