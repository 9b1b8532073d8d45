package io.statecast.messagestore.event;

import java.time.Duration;

/**
 * A compilation or evaluation did not finish within its deadline. The worker thread that ran it
 * has been abandoned (Saxon cannot be interrupted); the caller should stop using the expression.
 */
public final class QueryTimeoutException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param what what timed out; @param limit the deadline that passed */
    public QueryTimeoutException(String what, Duration limit) {
        super(what + " did not finish within " + limit.toMillis() + " ms");
    }

    private QueryTimeoutException(String message) {
        super(message);
    }

    /** {@code what} used more than {@code limit} of CPU time. */
    public static QueryTimeoutException cpu(String what, Duration limit) {
        return new QueryTimeoutException(what + " used more than " + limit.toMillis() + " ms of CPU time");
    }
}
