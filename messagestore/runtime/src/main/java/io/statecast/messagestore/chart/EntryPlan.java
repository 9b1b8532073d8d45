package io.statecast.messagestore.chart;

/**
 * A transition's step worked out at compile time, valid when no history state is involved: the
 * states it exits are the active descendants of {@code domain}; the states it enters, in entry
 * order, and which of them take their default initial content.
 *
 * @param domain       the transition's domain (its exit set is the active states below it)
 * @param enter        the states entered, in document order
 * @param defaultEntry for each of {@code enter}, whether its initial transition's content runs
 * @param exitsHistory whether a state below the domain has a history pseudo-state to record
 */
record EntryPlan(StateNode domain, StateNode[] enter, boolean[] defaultEntry, boolean exitsHistory) {
}
