package io.statecast.messagestore.event;

/**
 * An XPath or XQuery failed at run time (a dynamic error such as a type mismatch, or a stack
 * overflow). The message names the expression.
 */
public final class EvaluationException extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean fatal;

    /**
     * @param message what failed
     * @param fatal   whether the expression must not be evaluated again (it overflowed the stack)
     * @param cause   the underlying error, or {@code null}
     */
    public EvaluationException(String message, boolean fatal, Throwable cause) {
        super(message, cause);
        this.fatal = fatal;
    }

    /** Whether the expression must not run again: its spec should be quarantined. */
    public boolean fatal() {
        return fatal;
    }
}
