package io.statecast.messagestore.tools.conformance;

/**
 * What became of one conformance test.
 *
 * @param test   the test's file name without {@code .scxml}
 * @param result passed, failed or excluded
 * @param reason why it failed or was excluded; empty when it passed
 */
public record TestOutcome(String test, Result result, String reason) {

    /** The three verdicts. */
    public enum Result {
        /** Reached the top-level final state {@code pass}. */
        PASSED,
        /** Reached {@code fail}, was refused, or did not finish. */
        FAILED,
        /** Not run, for the reason given. */
        EXCLUDED
    }
}
