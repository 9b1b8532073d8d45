package io.statecast.messagestore.chart;

/**
 * A compiled transition: its event descriptors, condition, targets and content, and - when its
 * targets involve no history state - the plan of its step worked out once at compile time.
 */
final class Transition {

    private final StateNode source;
    private final String[] events;
    private final Expr cond;
    private final StateNode[] targets;
    private final boolean internal;
    private final Action[] body;
    /** Set by the compiler before the chart is published; {@code null} when the step depends on history. */
    EntryPlan plan;

    /**
     * @param events   event descriptors with any trailing {@code .*} removed ({@code "*"} matches
     *                 every event); {@code null} for an eventless transition
     * @param cond     the guard, or {@code null}
     * @param targets  target states (may be empty: a targetless transition)
     * @param internal {@code type="internal"}
     * @param body     the executable content, one block
     */
    Transition(StateNode source, String[] events, Expr cond, StateNode[] targets, boolean internal, Action[] body) {
        this.source = source;
        this.events = events;
        this.cond = cond;
        this.targets = targets;
        this.internal = internal;
        this.body = body;
    }

    StateNode source() {
        return source;
    }

    String[] events() {
        return events;
    }

    Expr cond() {
        return cond;
    }

    StateNode[] targets() {
        return targets;
    }

    boolean internal() {
        return internal;
    }

    Action[] body() {
        return body;
    }


    /** Whether one of the descriptors matches {@code name} (token prefix, or {@code *}). */
    boolean matches(String name) {
        if (events == null) {
            return false;
        }
        for (String d : events) {
            if (d.equals("*") || name.equals(d)
                    || (name.length() > d.length() && name.startsWith(d) && name.charAt(d.length()) == '.')) {
                return true;
            }
        }
        return false;
    }
}
