package io.statecast.messagestore.spec;

import java.util.Objects;

/**
 * One compiled {@code action:set}.
 *
 * @param field the primitive's parameter being assigned
 * @param value where the value comes from
 * @param line  line of the {@code action:set} in the spec
 */
public record FieldAssignment(ActionField field, FieldValue value, int line) {

    /** Requires the field and value. */
    public FieldAssignment {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(value, "value");
    }
}
