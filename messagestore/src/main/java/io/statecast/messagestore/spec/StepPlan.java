package io.statecast.messagestore.spec;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.scxml.model.OnEntry;
import org.apache.commons.scxml.model.OnExit;
import org.apache.commons.scxml.model.State;
import org.apache.commons.scxml.model.Transition;
import org.apache.commons.scxml.model.TransitionTarget;

/**
 * The outcome of one engine step, worked out once while a spec is loaded: from a configuration
 * of one atomic state, the transition an event selects, the states left and entered in the order
 * their actions run, and the configuration after the step. Immutable; shared by every executor
 * of the spec.
 *
 * @param transition    the transition taken, or {@code null} when the event selects none (the
 *                      step changes nothing and runs no action)
 * @param exits         states left, innermost first (the order of their exit actions)
 * @param entries       states entered, outermost first (the order of their entry actions)
 * @param configuration the atomic states active after the step
 * @param program       the {@code <action:execute>} elements the step runs, in the engine's order
 *                      (exit actions, transition actions, entry actions and the initial
 *                      transitions' of compound states entered), or {@code null} when an action
 *                      is not one of the spec's primitive actions and only the engine can run it
 */
record StepPlan(Transition transition, List<Object> exits, List<Object> entries, List<Object> configuration,
        List<ExecuteAction> program) {

    /** Copies the lists. */
    StepPlan {
        exits = List.copyOf(exits);
        entries = List.copyOf(entries);
        configuration = List.copyOf(configuration);
        program = program == null ? null : List.copyOf(program);
    }

    /** A plan whose program is read off its transition and states. */
    StepPlan(Transition transition, List<Object> exits, List<Object> entries, List<Object> configuration) {
        this(transition, exits, entries, configuration, programOf(transition, exits, entries));
    }

    /**
     * The order is {@link LeanSemantics#executeActions}'. {@code <action:create>} and
     * {@code <action:set>} do nothing when run: they are compiled into their {@code execute}.
     */
    private static List<ExecuteAction> programOf(Transition t, List<Object> exits, List<Object> entries) {
        List<ExecuteAction> out = new ArrayList<>();
        if (t == null) {
            return out;
        }
        for (Object o : exits) {
            OnExit exit = ((TransitionTarget) o).getOnExit();
            if (exit != null && !collect(exit.getActions(), out)) {
                return null;
            }
        }
        if (!collect(t.getActions(), out)) {
            return null;
        }
        return entryProgram(entries, out);
    }

    /**
     * The program of entering {@code entries} (outermost first), as the engine's start runs it;
     * {@code null} when an action is not a primitive action.
     */
    static List<ExecuteAction> entryProgram(List<Object> entries) {
        List<ExecuteAction> out = entryProgram(entries, new ArrayList<>());
        return out == null ? null : List.copyOf(out);
    }

    private static List<ExecuteAction> entryProgram(List<Object> entries, List<ExecuteAction> out) {
        for (Object o : entries) {
            TransitionTarget tt = (TransitionTarget) o;
            OnEntry entry = tt.getOnEntry();
            if (entry != null && !collect(entry.getActions(), out)) {
                return null;
            }
            if (tt instanceof State s && s.isComposite() && s.getInitial() != null
                    && !collect(s.getInitial().getTransition().getActions(), out)) {
                return null;
            }
        }
        return out;
    }

    private static boolean collect(List<?> actions, List<ExecuteAction> out) {
        for (Object a : actions) {
            if (a instanceof ExecuteAction e) {
                out.add(e);
            } else if (!(a instanceof CreateAction) && !(a instanceof SetAction)) {
                return false;
            }
        }
        return true;
    }
}
