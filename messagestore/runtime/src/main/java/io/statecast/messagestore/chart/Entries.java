package io.statecast.messagestore.chart;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Recommendation's entry-set computation (computeEntrySet, addDescendantStatesToEnter,
 * addAncestorStatesToEnter, getEffectiveTargetStates, getTransitionDomain) over a chart's tree and
 * a session's history values. The session runs it per step where history is involved; the
 * compiler runs it once per transition, without history, to make its {@link EntryPlan}.
 */
final class Entries {

    /** A session's history values: the states a history pseudo-state remembers, or {@code null}. */
    @FunctionalInterface
    interface HistoryLookup {
        List<StateNode> remembered(StateNode history);
    }

    /** No history recorded (the compile-time plan; a plan is kept only if no history was met). */
    static final HistoryLookup NONE = h -> null;

    final boolean[] toEnter;
    final boolean[] defaultEntry;
    /** Default history content to run on entering a state, made when a history default is taken. */
    Map<StateNode, Action[]> historyContent;
    /** Whether a history pseudo-state was met: the result depends on history values. */
    boolean historyMet;
    private final HistoryLookup history;
    private final StateNode root;

    Entries(StateNode root, int states, HistoryLookup history) {
        this.root = root;
        this.toEnter = new boolean[states];
        this.defaultEntry = new boolean[states];
        this.history = history;
    }

    /** Adds the entry set of {@code t}. */
    void add(Transition t) {
        for (StateNode s : t.targets()) {
            addDescendants(s);
        }
        StateNode domain = domain(t);
        for (StateNode s : effectiveTargets(t)) {
            addAncestors(s, domain);
        }
    }

    private void addDescendants(StateNode state) {
        if (state.kind.isHistory()) {
            historyMet = true;
            List<StateNode> remembered = history.remembered(state);
            if (remembered != null) {
                for (StateNode s : remembered) {
                    addDescendants(s);
                }
                for (StateNode s : remembered) {
                    addAncestors(s, state.parent);
                }
            } else {
                if (historyContent == null) {
                    historyContent = new HashMap<>();
                }
                historyContent.put(state.parent, state.initial.body());
                for (StateNode s : state.initial.targets()) {
                    addDescendants(s);
                }
                for (StateNode s : state.initial.targets()) {
                    addAncestors(s, state.parent);
                }
            }
            return;
        }
        toEnter[state.index] = true;
        if (state.kind == StateKind.COMPOUND) {
            defaultEntry[state.index] = true;
            for (StateNode s : state.initial.targets()) {
                addDescendants(s);
            }
            for (StateNode s : state.initial.targets()) {
                addAncestors(s, state);
            }
        } else if (state.kind == StateKind.PARALLEL) {
            for (StateNode child : state.children) {
                if (!anyDescendantOrSelf(child)) {
                    addDescendants(child);
                }
            }
        }
    }

    private void addAncestors(StateNode state, StateNode ancestor) {
        for (StateNode anc = state.parent; anc != null && anc != ancestor; anc = anc.parent) {
            if (anc.kind == StateKind.ROOT) {
                break;
            }
            toEnter[anc.index] = true;
            if (anc.kind == StateKind.PARALLEL) {
                for (StateNode child : anc.children) {
                    if (!anyDescendantOrSelf(child)) {
                        addDescendants(child);
                    }
                }
            }
        }
    }

    private boolean anyDescendantOrSelf(StateNode s) {
        for (int i = s.index; i <= s.lastDescendant; i++) {
            if (toEnter[i]) {
                return true;
            }
        }
        return false;
    }

    /** The targets with each history state replaced by what it remembers or its default. */
    List<StateNode> effectiveTargets(Transition t) {
        List<StateNode> targets = new ArrayList<>(t.targets().length);
        for (StateNode s : t.targets()) {
            if (s.kind.isHistory()) {
                historyMet = true;
                List<StateNode> remembered = history.remembered(s);
                for (StateNode r : remembered != null ? remembered : effectiveTargets(s.initial)) {
                    if (!targets.contains(r)) {
                        targets.add(r);
                    }
                }
            } else if (!targets.contains(s)) {
                targets.add(s);
            }
        }
        return targets;
    }

    /** The transition's domain: the state whose active descendants it exits. */
    StateNode domain(Transition t) {
        List<StateNode> targets = effectiveTargets(t);
        StateNode source = t.source();
        if (targets.isEmpty()) {
            return source;
        }
        if (t.internal() && source.isCompoundOrRoot() && allBelow(targets, source)) {
            return source;
        }
        // findLCCA: the innermost compound ancestor (or the root) of the source holding every target
        for (StateNode anc = source.parent; anc != null; anc = anc.parent) {
            if (anc.isCompoundOrRoot() && allBelow(targets, anc)) {
                return anc;
            }
        }
        return root;
    }

    private static boolean allBelow(List<StateNode> targets, StateNode anc) {
        for (StateNode s : targets) {
            if (!s.isDescendantOf(anc)) {
                return false;
            }
        }
        return true;
    }

    /** The plan of {@code t} made without history, or {@code null} when it depends on history. */
    static EntryPlan plan(Transition t, StateNode[] states) {
        Entries e = new Entries(states[0], states.length, NONE);
        e.add(t);
        StateNode domain = e.domain(t);
        if (e.historyMet) {
            return null;
        }
        List<StateNode> enter = new ArrayList<>();
        List<Boolean> defaults = new ArrayList<>();
        for (int i = 1; i < states.length; i++) {
            if (e.toEnter[i]) {
                enter.add(states[i]);
                defaults.add(e.defaultEntry[i]);
            }
        }
        boolean[] flags = new boolean[defaults.size()];
        for (int i = 0; i < flags.length; i++) {
            flags[i] = defaults.get(i);
        }
        boolean exitsHistory = false;
        for (int i = domain.index + 1; i <= domain.lastDescendant; i++) {
            exitsHistory |= states[i].histories.length > 0;
        }
        return new EntryPlan(domain, enter.toArray(new StateNode[0]), flags, exitsHistory);
    }
}
