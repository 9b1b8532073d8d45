package io.statecast.messagestore.spec;

import java.util.List;
import java.util.Objects;

/**
 * The states and transitions of a spec as written, for tools ({@code statecast spec info},
 * rendering) and for the runtime's diagnostics. The executable form is the Commons model.
 *
 * @param initialState the id of the initial state
 * @param states       every state, parallel and final, in document order
 * @param transitions  every transition, in document order
 */
public record SpecStructure(String initialState, List<StateInfo> states, List<TransitionInfo> transitions) {

    /** Copies the lists. */
    public SpecStructure {
        Objects.requireNonNull(initialState, "initialState");
        states = List.copyOf(states);
        transitions = List.copyOf(transitions);
    }

    /** Kind of a state element. */
    public enum StateKind {
        /** {@code <state>}. */
        STATE,
        /** {@code <parallel>}. */
        PARALLEL,
        /** {@code <final>}. */
        FINAL
    }

    /**
     * One state.
     *
     * @param id     its id
     * @param kind   state, parallel or final
     * @param parent id of the enclosing state, or {@code null} at the top
     * @param line   line in the spec
     */
    public record StateInfo(String id, StateKind kind, String parent, int line) {
    }

    /**
     * One transition.
     *
     * @param source  id of the state it leaves
     * @param event   the event that triggers it
     * @param targets target state ids; empty for a targetless (self) transition
     * @param line    line in the spec
     * @param actions the actions it executes, in order
     */
    public record TransitionInfo(String source, String event, List<String> targets, int line,
            List<ActionTemplate> actions) {
        /** Copies the lists. */
        public TransitionInfo {
            targets = List.copyOf(targets);
            actions = List.copyOf(actions);
        }
    }
}
