package io.statecast.specserver;

import java.util.List;
import java.util.Objects;

/**
 * The validation the spec server applies to every document it accepts or finds on disk.
 *
 * <p>The server knows nothing about the executable-spec format itself: it asks this check whether a
 * document is a valid spec and, if so, which service it describes. Production wiring uses the
 * MessageStore spec loader ({@link MessageStoreSpecCheck}); the server's own tests use a shallow
 * test double.
 *
 * <p>Implementations must be thread-safe (the server calls them from several worker threads), must
 * treat the document as hostile (no external entities, bounded work) and must not throw for a bad
 * document: a bad document is an {@link Validated.Invalid} result. An unchecked exception is
 * treated by the server as an internal error (HTTP 500) and logged.
 */
@FunctionalInterface
public interface SpecCheck {

    /**
     * Validates one document.
     *
     * @param document the raw bytes as uploaded or stored; never modified by the check
     * @return the service the document describes, or the problems found
     */
    Validated check(byte[] document);

    /** Outcome of {@link #check}: a closed set of two cases. */
    sealed interface Validated permits Validated.Valid, Validated.Invalid {

        /**
         * The document is a valid spec.
         *
         * @param metadata what the server indexes and lists
         */
        record Valid(SpecMetadata metadata) implements Validated {
            /** Rejects a missing metadata value. */
            public Valid {
                Objects.requireNonNull(metadata, "metadata");
            }
        }

        /**
         * The document is not a valid spec.
         *
         * @param problems at least one problem, in document order where known
         */
        record Invalid(List<SpecProblem> problems) implements Validated {
            /** Copies the list and rejects an empty one: an invalid document names what is wrong. */
            public Invalid {
                problems = List.copyOf(problems);
                if (problems.isEmpty()) {
                    throw new IllegalArgumentException("an invalid document needs at least one problem");
                }
            }
        }
    }
}
