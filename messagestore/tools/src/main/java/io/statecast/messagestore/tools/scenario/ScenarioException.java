package io.statecast.messagestore.tools.scenario;

/**
 * A scenario file that cannot be read or does not describe a valid scenario. The message starts
 * with {@code source:line:column:} when the position is known and names the offending field
 * (e.g. {@code steps[2].receive.type}).
 */
public final class ScenarioException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int line;

    /** A problem at {@code line} (0 when unknown); {@code message} is the complete text. */
    public ScenarioException(String message, int line) {
        super(message);
        this.line = line;
    }

    /** A problem reading the file. */
    public ScenarioException(String message, Throwable cause) {
        super(message, cause);
        this.line = 0;
    }

    /** The line of the problem in the scenario file, 1-based, or 0 when unknown. */
    public int line() {
        return line;
    }
}
