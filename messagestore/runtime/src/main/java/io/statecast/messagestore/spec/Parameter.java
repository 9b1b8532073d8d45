package io.statecast.messagestore.spec;

import java.util.Objects;

/**
 * A declared spec parameter: {@code <Parameter name="TimeoutACK" type="duration" default="500">…</Parameter>}.
 *
 * @param name         the name actions and expressions use
 * @param type         the value's type
 * @param defaultValue the default, already checked against the type
 * @param description  what the parameter controls
 * @param line         line of the declaration, or 0
 */
public record Parameter(String name, ParameterType type, String defaultValue, String description, int line) {

    /** Requires every component. */
    public Parameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(description, "description");
    }
}
