package io.statecast.messagestore.spec;

import java.util.List;
import java.util.Objects;

/**
 * One compiled action: an {@code action:create}, its {@code action:set}s and the
 * {@code action:execute} that fires it, all in one {@code <onentry>}, {@code <onexit>} or
 * {@code <transition>}. Built once per spec and shared by every instance; the runtime resolves
 * the assignments (XPath over the instance's history, parameter values) when the engine hands
 * the template to its {@link ActionSink}.
 *
 * @param primitive   the primitive to invoke
 * @param assignments the field assignments, in document order (a later assignment of the same
 *                    field wins, as in the blueprint's ActionsQueue)
 * @param line        line of the {@code action:execute}
 */
public record ActionTemplate(Primitive primitive, List<FieldAssignment> assignments, int line) {

    /** Copies the assignments. */
    public ActionTemplate {
        Objects.requireNonNull(primitive, "primitive");
        assignments = List.copyOf(assignments);
    }

    /**
     * The assignments of message fields ({@code Message/Fields/NAME}), the last one of each name,
     * in the order the names were first assigned.
     */
    public List<FieldAssignment> messageFields() {
        java.util.LinkedHashMap<String, FieldAssignment> last = new java.util.LinkedHashMap<>();
        for (FieldAssignment a : assignments) {
            if (a.field() == ActionField.MESSAGE_FIELD) {
                last.put(a.name(), a);
            }
        }
        return List.copyOf(last.values());
    }

    /** The value last assigned to {@code field}, or {@code null}. */
    public FieldValue valueOf(ActionField field) {
        FieldValue v = null;
        for (FieldAssignment a : assignments) {
            if (a.field() == field) {
                v = a.value();
            }
        }
        return v;
    }
}
