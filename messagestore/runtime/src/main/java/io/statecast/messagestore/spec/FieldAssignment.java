package io.statecast.messagestore.spec;

import io.statecast.overlay.message.MessageField;
import java.util.Objects;

/**
 * One compiled {@code action:set}.
 *
 * @param field     the primitive's parameter being assigned
 * @param value     where the value comes from
 * @param line      line of the {@code action:set} in the spec
 * @param name      for {@link ActionField#MESSAGE_FIELD}, the message field's name
 *                  ({@code Message/Fields/NAME}); null for every other field
 * @param fieldType for {@link ActionField#MESSAGE_FIELD}, the field's type; null otherwise
 */
public record FieldAssignment(ActionField field, FieldValue value, int line, String name, MessageField.Type fieldType) {

    /** Requires the field and value, and a name and type exactly for a message field. */
    public FieldAssignment {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(value, "value");
        if ((field == ActionField.MESSAGE_FIELD) != (name != null && fieldType != null)) {
            throw new IllegalArgumentException("a name and type are given exactly for " + ActionField.MESSAGE_FIELD.path());
        }
    }

    /** An assignment of a field other than a message field. */
    public FieldAssignment(ActionField field, FieldValue value, int line) {
        this(field, value, line, null, null);
    }

    /** The path as written: {@code Message/Fields/NAME} for a message field. */
    public String path() {
        return name == null ? field.path() : ActionField.FIELDS_PREFIX + name;
    }
}
