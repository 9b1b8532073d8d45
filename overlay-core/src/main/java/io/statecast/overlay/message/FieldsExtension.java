package io.statecast.overlay.message;

import java.util.Objects;

/**
 * The <em>fields extension</em>: a service message's {@link MessageFields}. Valid only beside an
 * {@link FsmExtension} (fields belong to the service's protocol); carried as an extension of its
 * own rather than inside the FSM extension's fixed 13-byte body, so that nodes of the previous
 * release keep it as an {@link UnknownExtension} and forward it intact (no wire version change).
 *
 * @param fields at least one field (a message without fields has no fields extension)
 */
public record FieldsExtension(MessageFields fields) implements Extension {

    /** Requires fields. */
    public FieldsExtension {
        Objects.requireNonNull(fields, "fields");
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("a fields extension needs at least one field");
        }
    }

    @Override
    public int type() {
        return FIELDS;
    }
}
