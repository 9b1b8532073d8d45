package io.statecast.messagestore.spec;

import java.util.List;
import org.apache.commons.scxml.model.Transition;

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
 */
record StepPlan(Transition transition, List<Object> exits, List<Object> entries, List<Object> configuration) {

    /** Copies the lists. */
    StepPlan {
        exits = List.copyOf(exits);
        entries = List.copyOf(entries);
        configuration = List.copyOf(configuration);
    }
}
