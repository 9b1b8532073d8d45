package io.statecast.messagestore.action;

import io.statecast.messagestore.spec.Primitive;
import java.util.Objects;

/**
 * One entry of an instance's history of actions (the blueprint's <em>historyOfActions</em>).
 *
 * @param primitive  the primitive
 * @param line       line of its {@code action:execute} in the spec
 * @param timeMillis when it ran, in milliseconds of the node's clock
 * @param outcome    what became of it
 * @param detail     why it failed or was not run, or what it did (e.g. transmissions made); may be empty
 */
public record ActionRecord(Primitive primitive, int line, long timeMillis, ActionOutcome outcome, String detail) {

    /** Requires every component. */
    public ActionRecord {
        Objects.requireNonNull(primitive, "primitive");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
    }
}
