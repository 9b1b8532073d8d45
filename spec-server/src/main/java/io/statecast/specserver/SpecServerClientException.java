package io.statecast.specserver;

import java.util.List;

/**
 * A request to a spec server failed: the server answered with an error status (see
 * {@link #status()}, and {@link #problems()} for a rejected document), or the exchange itself
 * failed (status 0: connection refused, timeout, response too large or malformed).
 */
public final class SpecServerClientException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @serial the HTTP status, or 0 */
    private final int status;
    /** @serial validation problems, for a 400 on upload */
    private final transient List<SpecProblem> problems;

    /**
     * @param status the HTTP status, or 0 when no valid response arrived
     * @param message what failed
     * @param problems validation problems reported by the server, possibly empty
     * @param cause the underlying failure, or null
     */
    public SpecServerClientException(int status, String message, List<SpecProblem> problems, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.problems = List.copyOf(problems);
    }

    /** @return the HTTP status, or 0 when no valid response arrived */
    public int status() {
        return status;
    }

    /** @return the server's validation problems (for a rejected upload), possibly empty */
    public List<SpecProblem> problems() {
        return problems == null ? List.of() : problems;
    }
}
