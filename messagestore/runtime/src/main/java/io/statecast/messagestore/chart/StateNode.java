package io.statecast.messagestore.chart;

import java.util.List;

/**
 * One node of a compiled chart's state tree. Nodes are numbered in document order (the root is
 * 0), which is the Recommendation's entry order; exit order is its reverse.
 *
 * <p>Built by {@link ChartCompiler} and not changed after the chart is published; safe to share.
 */
public final class StateNode {

    final int index;
    final String id;
    final StateKind kind;
    final StateNode parent;
    final int depth;
    /** Child states ({@code state}, {@code parallel}, {@code final}) in document order; no history. */
    StateNode[] children = new StateNode[0];
    /** History pseudo-states directly inside this state. */
    StateNode[] histories = new StateNode[0];
    Transition[] transitions = new Transition[0];
    /** A compound state's default entry, the root's initial transition, a history's default. */
    Transition initial;
    Action[][] onEntry = new Action[0][];
    Action[][] onExit = new Action[0][];
    /** Data declared inside this state (initialised on first entry under late binding). */
    DataDecl[] data = new DataDecl[0];
    DoneData doneData;
    /** Atomic states: the eventless transitions on the chain up, innermost first, in document order. */
    Transition[] eventless;
    /**
     * Atomic states: for each event name the chart's descriptors spell out, the transitions on the
     * chain up that it matches, innermost first; a name not in the map is matched by scanning.
     */
    java.util.Map<String, Transition[]> candidates = java.util.Map.of();

    /** The candidates of {@link #candidates} for {@code event}, or {@code null} to scan. */
    Transition[] candidates(String event) {
        return candidates.get(event);
    }

    /** Index of the state's last descendant: {@code d} is a descendant iff index < d.index <= last. */
    int lastDescendant;

    StateNode(int index, String id, StateKind kind, StateNode parent) {
        this.index = index;
        this.id = id;
        this.kind = kind;
        this.parent = parent;
        this.depth = parent == null ? 0 : parent.depth + 1;
    }

    /** Position in document order; the root is 0. */
    public int index() {
        return index;
    }

    /** The {@code id}, or a generated one for a state that had none. */
    public String id() {
        return id;
    }

    /** What kind of node this is. */
    public StateKind kind() {
        return kind;
    }

    /** The enclosing state; {@code null} for the root. */
    public StateNode parent() {
        return parent;
    }

    /** Child states in document order (history pseudo-states excluded). */
    public List<StateNode> children() {
        return List.of(children);
    }

    /** Whether {@code this} is a proper descendant of {@code ancestor}. */
    public boolean isDescendantOf(StateNode ancestor) {
        return index > ancestor.index && index <= ancestor.lastDescendant;
    }

    /** Whether the state has no child states (atomic states and finals). */
    public boolean isAtomic() {
        return kind == StateKind.ATOMIC || kind == StateKind.FINAL;
    }

    boolean isCompoundOrRoot() {
        return kind == StateKind.COMPOUND || kind == StateKind.ROOT;
    }

    @Override
    public String toString() {
        return id;
    }
}
