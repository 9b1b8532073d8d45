package io.statecast.messagestore.tools.check;

import java.time.Duration;

/**
 * Told how far a check's exploration has got, about once a second while it runs, so a long check
 * is not mistaken for a hung one.
 */
@FunctionalInterface
public interface CheckProgress {

    /** Tells nobody. */
    CheckProgress NONE = (states, transitions, elapsed) -> { };

    /**
     * @param states      abstract states found so far
     * @param transitions steps taken so far
     * @param elapsed     time since the exploration started
     */
    void explored(int states, long transitions, Duration elapsed);
}
