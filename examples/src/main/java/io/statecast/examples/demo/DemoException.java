package io.statecast.examples.demo;

/** The demo could not run: a service that cannot be read, a server or node that did not start. */
public final class DemoException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what went wrong, naming the part */
    public DemoException(String message) {
        super(message);
    }

    /** @param message what went wrong @param cause the underlying failure */
    public DemoException(String message, Throwable cause) {
        super(message, cause);
    }
}
