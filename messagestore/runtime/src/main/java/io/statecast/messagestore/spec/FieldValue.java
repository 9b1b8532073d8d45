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
     * {@code sequence="…"}: a sequence number of the instance's flow (its service and source),
     * counted by the service, not the node's MessageID counter. Integer message fields only.
     */
    record Sequence(SequenceKind kind) implements FieldValue {
        /** Requires the kind. */
        public Sequence {
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** Which sequence number a {@link Sequence} value takes. */
    enum SequenceKind {
        /**
         * {@code sequence="instance"}: the number this instance took, taken from its flow the
         * first time the instance asks and the same on every later send (a retransmission keeps
         * its number).
         */
        INSTANCE("instance"),
        /** {@code sequence="next"}: a new number of the flow at every send (a flow instance numbering its messages). */
        NEXT("next");

        private final String label;

        SequenceKind(String label) {
            this.label = label;
        }

        /** As written in {@code sequence="…"}. */
        public String label() {
            return label;
        }

        /** The kind written {@code label}, or {@code null}. */
        public static SequenceKind ofLabel(String label) {
            for (SequenceKind k : values()) {
                if (k.label.equals(label)) {
                    return k;
                }
            }
            return null;
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
