package io.statecast.messagestore.chart;

/** What a node of a chart's state tree is, after the Recommendation's element names. */
public enum StateKind {
    /** The {@code <scxml>} element itself. */
    ROOT,
    /** A {@code <state>} without child states. */
    ATOMIC,
    /** A {@code <state>} with child states: exactly one of them is active. */
    COMPOUND,
    /** A {@code <parallel>}: all of its child states are active. */
    PARALLEL,
    /** A {@code <final>}. */
    FINAL,
    /** A {@code <history type="shallow">}. */
    SHALLOW_HISTORY,
    /** A {@code <history type="deep">}. */
    DEEP_HISTORY;

    /** Whether this is a history pseudo-state. */
    public boolean isHistory() {
        return this == SHALLOW_HISTORY || this == DEEP_HISTORY;
    }
}
