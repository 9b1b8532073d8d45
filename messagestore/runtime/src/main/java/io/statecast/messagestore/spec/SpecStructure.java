package io.statecast.messagestore.spec;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The states and transitions of a spec as written, for tools ({@code statecast spec info},
 * rendering) and for the runtime's diagnostics. The executable form is the Commons model.
 *
 * @param initialState the id of the initial state
 * @param states       every state, parallel and final, in document order
 * @param transitions  every transition, in document order
 * @param sectionLines line of each datamodel section present ({@code service}, {@code metaops},
 *                     {@code parameters}, {@code events}), for tools that point at one
 */
public record SpecStructure(String initialState, List<StateInfo> states, List<TransitionInfo> transitions,
        Map<String, Integer> sectionLines) {

    /** Copies the lists and the map. */
    public SpecStructure {
        Objects.requireNonNull(initialState, "initialState");
        states = List.copyOf(states);
        transitions = List.copyOf(transitions);
        sectionLines = Map.copyOf(sectionLines);
    }

    /** A structure without section lines. */
    public SpecStructure(String initialState, List<StateInfo> states, List<TransitionInfo> transitions) {
        this(initialState, states, transitions, Map.of());
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
     * @param id             its id
     * @param kind           state, parallel or final
     * @param parent         id of the enclosing state, or {@code null} at the top
     * @param line           line in the spec
     * @param initial        for a compound {@code <state>}: the child entered first ({@code initial="…"}
     *                       or the target of its {@code <initial>}); otherwise {@code null}
     * @param onentry        the actions of its {@code <onentry>}, in order
     * @param onexit         the actions of its {@code <onexit>}, in order
     * @param initialActions the actions of the transition of its {@code <initial>}, in order
     */
    public record StateInfo(String id, StateKind kind, String parent, int line, String initial,
            List<ActionTemplate> onentry, List<ActionTemplate> onexit, List<ActionTemplate> initialActions) {

        /** Copies the lists. */
        public StateInfo {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(kind, "kind");
            onentry = List.copyOf(onentry);
            onexit = List.copyOf(onexit);
            initialActions = List.copyOf(initialActions);
        }

        /** A state without entry, exit or initial actions and no initial child. */
        public StateInfo(String id, StateKind kind, String parent, int line) {
            this(id, kind, parent, line, null, List.of(), List.of(), List.of());
        }
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
