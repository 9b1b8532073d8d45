package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.spec.Problem.Severity;

/**
 * What {@code statecast spec lint} checks. Each finding names one rule by its {@link #id()}; the
 * exact semantics of each rule are in {@code docs/authoring.md} ("Lint").
 */
public enum Rule {
    /** The loader refused the spec for a reason no other rule names. */
    INVALID("invalid", Severity.ERROR, "the spec does not load"),
    /** The loader flagged something no other rule names. */
    SPEC_WARNING("spec-warning", Severity.WARNING, "the loader flagged something"),
    /** A transition or composite event names an event that is not declared (from the loader). */
    UNDECLARED_EVENT("undeclared-event", Severity.ERROR, "an event is used but not declared"),
    /** A declared event that nothing uses: no transition, composite event or history expression. */
    UNUSED_EVENT("unused-event", Severity.WARNING, "an event is declared but nothing uses it"),
    /** A state no run can enter (from the loader). */
    UNREACHABLE_STATE("unreachable-state", Severity.WARNING, "a state is unreachable from the initial state"),
    /** A reachable state from which no run ends the instance. */
    LEAKING_STATE("leaking-state", Severity.ERROR,
            "from a reachable state no path reaches a top-level <final> or a terminate"),
    /** A setTimer whose identifier no timer event declares (from the loader). */
    UNDECLARED_TIMER("undeclared-timer", Severity.ERROR, "a timer is set but no timer event waits for it"),
    /** A timer event whose timer no setTimer sets (from the loader). */
    TIMER_NEVER_SET("timer-never-set", Severity.WARNING, "a timer event waits for a timer nothing sets"),
    /** A setTimer whose expiry no transition reacts to in any state where it can be pending. */
    UNHANDLED_TIMER("unhandled-timer", Severity.ERROR,
            "a timer can only expire in states that do not react to it"),
    /** An expression reads history events that cannot be in the history when it runs. */
    IMPOSSIBLE_HISTORY_READ("impossible-history-read", Severity.ERROR,
            "an XPath or XQuery reads an event that cannot be in the history when it runs"),
    /** The metaops contradict what the actions do. */
    METAOPS_CONTRADICTION("metaops-contradiction", Severity.ERROR, "the metaops contradict the actions");

    private final String id;
    private final Severity severity;
    private final String summary;

    Rule(String id, Severity severity, String summary) {
        this.id = id;
        this.severity = severity;
        this.summary = summary;
    }

    /** The rule's name in output and documentation, e.g. {@code leaking-state}. */
    public String id() {
        return id;
    }

    /** The severity of its findings. */
    public Severity severity() {
        return severity;
    }

    /** One line saying what the rule finds. */
    public String summary() {
        return summary;
    }

    /** The rule with this id, or {@code null}. */
    public static Rule ofId(String id) {
        for (Rule r : values()) {
            if (r.id.equals(id)) {
                return r;
            }
        }
        return null;
    }
}
