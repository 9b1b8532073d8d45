package io.statecast.messagestore.chart;

/**
 * A compiled transition: its event descriptors, condition, targets and content.
 *
 * @param source   the state it belongs to
 * @param events   event descriptors with any trailing {@code .*} removed ({@code "*"} matches
 *                 every event); {@code null} for an eventless transition
 * @param cond     the guard, or {@code null}
 * @param targets  target states (may be empty: a targetless transition)
 * @param internal {@code type="internal"}
 * @param body     the executable content, one block
 * @param order    position among all transitions in document order
 */
record Transition(StateNode source, String[] events, Expr cond, StateNode[] targets, boolean internal,
        Action[] body, int order) {

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
