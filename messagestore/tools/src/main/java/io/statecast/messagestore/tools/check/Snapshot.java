package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.event.HistoryEntry;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything the checker needs to resume an instance: its configuration (the engine's atomic
 * states), its pending timers, its history, whether it ended, and the virtual clock. Immutable;
 * restoring one into the {@link Simulator} costs one engine status update and re-appending the
 * history entries (at most a few dozen at the depths checked).
 *
 * @param configuration the atomic states, sorted by id; empty once ended
 * @param timers        the pending timers by identifier
 * @param entries       the history entries, oldest first
 * @param ended         whether the instance ended (terminate or a top-level final state)
 * @param clock         the virtual time, in milliseconds
 */
record Snapshot(List<String> configuration, SortedMap<Integer, Snapshot.PendingTimer> timers,
        List<HistoryEntry> entries, boolean ended, long clock) {

    /**
     * A pending timer.
     *
     * @param line  the line of the {@code setTimer} that set it
     * @param delay its delay in milliseconds
     */
    record PendingTimer(int line, long delay) {
    }

    /** Copies the collections. */
    Snapshot {
        configuration = List.copyOf(configuration);
        timers = Collections.unmodifiableSortedMap(new TreeMap<>(timers));
        entries = List.copyOf(entries);
    }

    /** The configuration as traces print it: {@code a} or {@code {a, b}}; {@code (ended)} once ended. */
    String describeStates() {
        if (ended) {
            return "(ended)";
        }
        return configuration.size() == 1 ? configuration.get(0) : "{" + String.join(", ", configuration) + "}";
    }
}
