package io.statecast.messagestore.event;

import java.util.Objects;

/**
 * A timer basic event: {@code <Event name="…"><Timer><TimerIdentifier>n</TimerIdentifier></Timer></Event>}.
 *
 * @param name              the event's name
 * @param filter            which timer expiries fire it
 * @param historyXmlNeeded  whether an expression may read its XML form
 * @param line              line of the declaration
 */
public record TimerEventDefinition(String name, TimerFilter filter, boolean historyXmlNeeded, int line)
        implements BasicEventDefinition {

    /** Requires a name and a filter. */
    public TimerEventDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(filter, "filter");
    }
}
