package io.statecast.messagestore.event;

import java.util.List;
import java.util.Objects;

/**
 * A composite event: after any of its constituent basic events fires, its query is evaluated
 * over the history; when the result is true ({@link CompiledQuery#isTrue}) the composite event
 * fires too (blueprint §4.2.1.3, Table 4.6).
 *
 * @param name          the event's name
 * @param constituents  the basic events whose firing triggers an evaluation, in spec order
 * @param query         the compiled first-order-logic expression
 * @param line          line of the declaration
 */
public record CompositeEventDefinition(String name, List<String> constituents, CompiledQuery query, int line) {

    /** Copies the constituents. */
    public CompositeEventDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(query, "query");
        constituents = List.copyOf(constituents);
    }
}
