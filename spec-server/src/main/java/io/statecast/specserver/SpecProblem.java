package io.statecast.specserver;

import java.util.Objects;

/**
 * One thing wrong with a spec document, located where the parser or validator found it.
 *
 * @param line 1-based line, or 0 when unknown
 * @param column 1-based column, or 0 when unknown
 * @param message what is wrong, for a human
 */
public record SpecProblem(int line, int column, String message) {
    /** Rejects a missing message and negative positions. */
    public SpecProblem {
        Objects.requireNonNull(message, "message");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line=" + line + ", column=" + column + " must be >= 0");
        }
    }

    /**
     * A problem without a known position.
     *
     * @param message what is wrong
     * @return the problem at line 0, column 0
     */
    public static SpecProblem unlocated(String message) {
        return new SpecProblem(0, 0, message);
    }

    @Override
    public String toString() {
        return line == 0 ? message : line + ":" + column + ": " + message;
    }
}
