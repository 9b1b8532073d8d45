package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.CompiledPath;
import java.util.Objects;

/** Where an {@code action:set} takes its value from. */
public sealed interface FieldValue {

    /** {@code value="…"}: a literal, already checked against the field's type. */
    record Literal(String text) implements FieldValue {
        /** Requires the text. */
        public Literal {
            Objects.requireNonNull(text, "text");
        }
    }

    /** {@code param="…"}: the effective value of a declared spec parameter. */
    record ParameterRef(String name) implements FieldValue {
        /** Requires the name. */
        public ParameterRef {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * {@code xpath="…"}: evaluated over the instance's history when the action executes. For the
     * field {@code Message} the result is a {@code <Message>} element whose children give the
     * message's attributes; for other fields its string value.
     */
    record HistoryQuery(CompiledPath path) implements FieldValue {
        /** Requires the path. */
        public HistoryQuery {
            Objects.requireNonNull(path, "path");
        }
    }
}
