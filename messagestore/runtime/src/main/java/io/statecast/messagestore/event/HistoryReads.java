package io.statecast.messagestore.event;

import java.util.Set;
import java.util.TreeSet;

/**
 * Which basic events' XML forms an expression may read from the history. The runtime builds an
 * event's XML form only when some expression of the spec may read it.
 *
 * <p>The analysis is conservative: an expression reads only named events when every way it
 * reaches event content is a step {@code Event[@name = 'literal']}; anything it cannot prove
 * ({@code //Message}, {@code //*}, {@code string(/)}, a variable holding the document, …)
 * makes it read all events. Node information ({@code //Node/…}) is not event content.
 *
 * @param allEvents  whether the expression may read any event
 * @param eventNames the events it reads when {@code allEvents} is false
 */
public record HistoryReads(boolean allEvents, Set<String> eventNames) {

    /** Reads no event. */
    public static final HistoryReads NONE = new HistoryReads(false, Set.of());
    /** May read every event. */
    public static final HistoryReads ALL = new HistoryReads(true, Set.of());

    /** Copies the names (sorted, for stable output). */
    public HistoryReads {
        eventNames = allEvents ? Set.of() : java.util.Collections.unmodifiableSet(new TreeSet<>(eventNames));
    }

    /** Whether events named {@code name} may be read. */
    public boolean reads(String name) {
        return allEvents || eventNames.contains(name);
    }

    /** What either expression reads. */
    public HistoryReads union(HistoryReads other) {
        if (allEvents || other.allEvents) {
            return ALL;
        }
        TreeSet<String> names = new TreeSet<>(eventNames);
        names.addAll(other.eventNames);
        return new HistoryReads(false, names);
    }

    @Override
    public String toString() {
        return allEvents ? "all events" : eventNames.isEmpty() ? "no events" : "events " + eventNames;
    }
}
