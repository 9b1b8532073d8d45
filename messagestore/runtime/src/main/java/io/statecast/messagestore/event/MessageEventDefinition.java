package io.statecast.messagestore.event;

import java.util.Objects;

/**
 * A message basic event: {@code <Event name="…"><Message>…</Message></Event>}.
 *
 * @param name              the event's name
 * @param filter            which messages fire it
 * @param historyXmlNeeded  whether an expression may read its XML form
 * @param line              line of the declaration
 */
public record MessageEventDefinition(String name, MessageFilter filter, boolean historyXmlNeeded, int line)
        implements BasicEventDefinition {

    /** Requires a name and a filter. */
    public MessageEventDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(filter, "filter");
    }
}
