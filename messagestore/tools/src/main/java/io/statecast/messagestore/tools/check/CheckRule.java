package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.spec.Problem.Severity;

/**
 * What {@code statecast spec check} reports. The exact semantics are in {@code docs/authoring.md}
 * ("Checking a spec").
 */
public enum CheckRule {
    /** The spec does not load (or the file cannot be read). */
    INVALID("invalid", Severity.ERROR),
    /** The spec uses what the checker does not model (the datamodel, history): not checked. */
    NOT_MODELLED("not-modelled", Severity.ERROR),
    /** A reached configuration from which no sequence of inputs ends the instance. */
    LEAKING_STATE("leaking-state", Severity.ERROR),
    /** Timer expiries alone make the instance send for ever. */
    SEND_STORM("send-storm", Severity.ERROR),
    /** A pending timer expires where no transition reacts to it. */
    UNHANDLED_TIMER("unhandled-timer", Severity.WARNING),
    /** A message event some transition waits for is never handled in any reached state. */
    NEVER_HANDLED("never-handled", Severity.WARNING),
    /** A composite event some transition waits for never becomes true. */
    COMPOSITE_NEVER_TRUE("composite-never-true", Severity.WARNING),
    /** An action or a composite query fails on a reachable run. */
    ACTION_FAILS("action-fails", Severity.WARNING);

    private final String id;
    private final Severity severity;

    CheckRule(String id, Severity severity) {
        this.id = id;
        this.severity = severity;
    }

    /** The rule's name in output, e.g. {@code send-storm}. */
    public String id() {
        return id;
    }

    /** The severity of its findings. */
    public Severity severity() {
        return severity;
    }
}
