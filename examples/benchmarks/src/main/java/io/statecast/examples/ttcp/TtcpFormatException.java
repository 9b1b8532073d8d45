package io.statecast.examples.ttcp;

/** A payload that is not a well-formed ttcp payload (the boundary's one checked exception). */
public final class TtcpFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong with the payload */
    public TtcpFormatException(String message) {
        super(message);
    }
}
