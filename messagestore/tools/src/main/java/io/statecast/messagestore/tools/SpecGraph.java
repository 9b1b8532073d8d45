package io.statecast.messagestore.tools;

import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecStructure;
import io.statecast.messagestore.spec.SpecStructure.StateInfo;
import io.statecast.messagestore.spec.SpecStructure.StateKind;
import io.statecast.messagestore.spec.SpecStructure.TransitionInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A loaded spec seen as a graph for static analysis: which actions run, in which order, when a
 * transition is taken in a state, and which states are active afterwards. Built from
 * {@link ServiceSpec#structure()} only; nothing is parsed again.
 *
 * <h2>The abstraction</h2>
 * Every transition is assumed possible: messages may arrive at any time and composite events may
 * be true, so the graph over-approximates what instances can do. A <em>step</em> is one
 * transition taken while a state is active (the transitions of a state's ancestors are available
 * in it too). Its action sequence follows SCXML's order: the {@code <onexit>} blocks of the states
 * it leaves (innermost first), the transition's own actions, then the {@code <onentry>} blocks of
 * the states it enters (outermost first), each compound state's {@code <initial>} actions right
 * after its entry actions. A step <em>ends</em> the instance when its sequence executes
 * {@code terminate} or it enters a top-level {@code <final>} state (a nested {@code <final>} only
 * raises a {@code done.state} event, which no spec can name).
 *
 * <p>Hierarchy follows SCXML: the transition's domain is the least common ancestor of its source
 * and targets (the source itself when every target is a proper descendant of it); the states
 * below the domain on the way from the active state are exited, those on the way to each target
 * and the target's initial descendants (all children of a {@code <parallel>}) are entered. States
 * in sibling regions of a {@code <parallel>} are active together: the graph links each state to
 * the states of the other regions ({@link #coActive}), an over-approximation that ignores which
 * region state is active.
 *
 * <p>Immutable and cheap to build (linear in the spec's size).
 */
public final class SpecGraph {

    /** Where an action block sits. */
    public enum BlockKind {
        /** A state's {@code <onentry>}. */
        ONENTRY,
        /** A state's {@code <onexit>}. */
        ONEXIT,
        /** A {@code <transition>}. */
        TRANSITION,
        /** The transition of a compound state's {@code <initial>}. */
        INITIAL
    }

    /**
     * One action where it is written.
     *
     * @param action     the compiled action
     * @param kind       the kind of block holding it
     * @param state      the state owning the block (the transition's source for a transition)
     * @param transition the transition, for {@link BlockKind#TRANSITION}; otherwise {@code null}
     * @param index      the action's position in its block
     */
    public record ActionSite(ActionTemplate action, BlockKind kind, String state, TransitionInfo transition,
            int index) {

        /** Requires the action, kind and state. */
        public ActionSite {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(state, "state");
        }

        /** The primitive it executes. */
        public Primitive primitive() {
            return action.primitive();
        }

        /**
         * Same block and position. Records compare actions by value; two identical actions in
         * different blocks are different sites, and identical ones in the same block differ in index.
         */
        @Override
        public boolean equals(Object o) {
            return o instanceof ActionSite s && s.action == action && s.kind == kind && s.state.equals(state)
                    && s.transition == transition && s.index == index;
        }

        @Override
        public int hashCode() {
            return Objects.hash(System.identityHashCode(action), kind, state, System.identityHashCode(transition),
                    index);
        }
    }

    /**
     * One transition taken while a state is active, or the instance's start.
     *
     * @param from       the active state the step is taken in; {@code null} for the start
     * @param transition the transition taken; {@code null} for the start
     * @param actions    every action the step executes, in order
     * @param entered    the states entered, outermost first (empty for a targetless transition)
     * @param after      the states active after the step (the entered states and their
     *                   ancestors; {@code from} for a targetless transition); empty when the step
     *                   ends the instance
     * @param ends       whether the step ends the instance
     */
    public record Step(String from, TransitionInfo transition, List<ActionSite> actions, List<String> entered,
            Set<String> after, boolean ends) {

        /** Copies the collections. */
        public Step {
            actions = List.copyOf(actions);
            entered = List.copyOf(entered);
            after = Collections.unmodifiableSet(new LinkedHashSet<>(after));
        }

        /** The event that triggers the step; {@code null} for the start. */
        public String event() {
            return transition == null ? null : transition.event();
        }
    }

    private final ServiceSpec spec;
    private final Map<String, StateInfo> states = new LinkedHashMap<>();
    private final Map<String, List<String>> children = new HashMap<>();
    private final Map<String, List<TransitionInfo>> bySource = new HashMap<>();
    private final Map<String, List<Step>> stepsFrom = new LinkedHashMap<>();
    private final Map<String, Set<String>> coActive = new HashMap<>();
    private final Step start;
    private final Set<String> reachable;

    private SpecGraph(ServiceSpec spec) {
        this.spec = spec;
        SpecStructure st = spec.structure();
        for (StateInfo s : st.states()) {
            states.put(s.id(), s);
            if (s.parent() != null) {
                children.computeIfAbsent(s.parent(), k -> new ArrayList<>()).add(s.id());
            }
        }
        for (TransitionInfo t : st.transitions()) {
            bySource.computeIfAbsent(t.source(), k -> new ArrayList<>()).add(t);
        }
        for (StateInfo s : st.states()) {
            coActive.put(s.id(), computeCoActive(s.id()));
        }
        this.start = computeStart(st.initialState());
        for (StateInfo s : st.states()) {
            List<Step> steps = new ArrayList<>();
            for (String a : ancestorsOrSelf(s.id())) {
                for (TransitionInfo t : bySource.getOrDefault(a, List.of())) {
                    steps.add(step(s.id(), t));
                }
            }
            stepsFrom.put(s.id(), List.copyOf(steps));
        }
        this.reachable = Collections.unmodifiableSet(reachableFrom(start.after()));
    }

    /** The graph of a loaded spec. */
    public static SpecGraph of(ServiceSpec spec) {
        return new SpecGraph(Objects.requireNonNull(spec, "spec"));
    }

    /** The spec analysed. */
    public ServiceSpec spec() {
        return spec;
    }

    /** Every state, in document order. */
    public Collection<StateInfo> states() {
        return Collections.unmodifiableCollection(states.values());
    }

    /** The state with this id, or {@code null}. */
    public StateInfo state(String id) {
        return states.get(id);
    }

    /** The child states of {@code id}, in document order. */
    public List<String> children(String id) {
        return children.getOrDefault(id, List.of());
    }

    /** The transitions written in state {@code id} (not its ancestors'). */
    public List<TransitionInfo> transitionsOf(String id) {
        return bySource.getOrDefault(id, List.of());
    }

    /** {@code id} and its ancestors, innermost first. */
    public List<String> ancestorsOrSelf(String id) {
        List<String> out = new ArrayList<>();
        for (String a = id; a != null; a = parentOf(a)) {
            out.add(a);
        }
        return out;
    }

    private String parentOf(String id) {
        StateInfo s = states.get(id);
        return s == null ? null : s.parent();
    }

    /** Whether some transition available in {@code id} (its own or an ancestor's) is on {@code event}. */
    public boolean handles(String id, String event) {
        for (String a : ancestorsOrSelf(id)) {
            for (TransitionInfo t : transitionsOf(a)) {
                if (event.equals(t.event())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The instance's start: entering the initial state (its entry and initial actions). */
    public Step start() {
        return start;
    }

    /** Every step that can be taken while {@code id} is active. */
    public List<Step> stepsFrom(String id) {
        return stepsFrom.getOrDefault(id, List.of());
    }

    /** The states of other regions of every {@code <parallel>} ancestor of {@code id}. */
    public Set<String> coActive(String id) {
        return coActive.getOrDefault(id, Set.of());
    }

    /** States that can be active in some run (from the start, every transition assumed possible). */
    public Set<String> reachable() {
        return reachable;
    }

    /**
     * The states only the node's own instance can reach: those reachable only through a
     * transition on the spec's {@code <Start>} event (empty without one). That instance lives as
     * long as its service is deployed, so the toolkit does not call such states leaks.
     */
    public Set<String> reachableOnlyByStart() {
        String start = spec.service().start();
        if (start == null) {
            return Set.of();
        }
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        for (String s : this.start.after()) {
            if (seen.add(s)) {
                todo.add(s);
            }
        }
        while (!todo.isEmpty()) {
            String s = todo.poll();
            for (Step step : stepsFrom(s)) {
                String ev = step.event();
                if (ev != null && !ev.isBlank() && java.util.Arrays.stream(ev.strip().split("\\s+")).allMatch(start::equals)) {
                    continue;
                }
                for (String n : step.after()) {
                    if (seen.add(n)) {
                        todo.add(n);
                    }
                }
            }
            for (String n : coActive(s)) {
                if (seen.add(n)) {
                    todo.add(n);
                }
            }
        }
        Set<String> only = new LinkedHashSet<>(reachable);
        only.removeAll(seen);
        return Collections.unmodifiableSet(only);
    }

    /**
     * The states that can be active after being in one of {@code from}: {@code from} itself, the
     * states active after its steps, and states active together with them, transitively.
     */
    public Set<String> reachableFrom(Collection<String> from) {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        for (String s : from) {
            if (states.containsKey(s) && seen.add(s)) {
                todo.add(s);
            }
        }
        while (!todo.isEmpty()) {
            String s = todo.poll();
            for (Step step : stepsFrom(s)) {
                for (String n : step.after()) {
                    if (seen.add(n)) {
                        todo.add(n);
                    }
                }
            }
            for (String n : coActive(s)) {
                if (seen.add(n)) {
                    todo.add(n);
                }
            }
        }
        return seen;
    }

    /** Every action site reached by some step from a reachable state or by the start. */
    public Set<ActionSite> reachableSites() {
        Set<ActionSite> out = new LinkedHashSet<>(start.actions());
        for (String s : reachable) {
            for (Step step : stepsFrom(s)) {
                out.addAll(step.actions());
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------

    private Set<String> computeCoActive(String id) {
        Set<String> out = new LinkedHashSet<>();
        String below = id;
        for (String a = parentOf(id); a != null; below = a, a = parentOf(a)) {
            StateInfo p = states.get(a);
            if (p.kind() != StateKind.PARALLEL) {
                continue;
            }
            for (String region : children(a)) {
                if (!region.equals(below)) {
                    addSubtree(region, out);
                }
            }
        }
        return Collections.unmodifiableSet(out);
    }

    private void addSubtree(String id, Set<String> out) {
        if (out.add(id)) {
            for (String c : children(id)) {
                addSubtree(c, out);
            }
        }
    }

    private Step computeStart(String initial) {
        List<String> entered = new ArrayList<>();
        List<String> chain = ancestorsOrSelf(initial);
        Collections.reverse(chain);
        for (String a : chain.subList(0, chain.size() - 1)) {
            entered.add(a);
        }
        enterWithDescendants(initial, entered);
        return finish(null, null, List.of(), entered);
    }

    private Step step(String from, TransitionInfo t) {
        List<ActionSite> actions = new ArrayList<>();
        if (t.targets().isEmpty()) {
            addBlock(actions, t.actions(), BlockKind.TRANSITION, t.source(), t);
            boolean ends = actions.stream().anyMatch(a -> a.primitive() == Primitive.TERMINATE);
            return new Step(from, t, actions, List.of(), ends ? Set.of() : Set.of(from), ends);
        }
        String domain = domain(t);
        for (String a : ancestorsOrSelf(from)) {
            if (a.equals(domain)) {
                break;
            }
            addBlock(actions, states.get(a).onexit(), BlockKind.ONEXIT, a, null);
        }
        addBlock(actions, t.actions(), BlockKind.TRANSITION, t.source(), t);
        List<String> entered = new ArrayList<>();
        for (String target : t.targets()) {
            List<String> chain = new ArrayList<>();
            for (String a : ancestorsOrSelf(target)) {
                if (a.equals(domain)) {
                    break;
                }
                chain.add(a);
            }
            Collections.reverse(chain);
            for (String a : chain.subList(0, Math.max(0, chain.size() - 1))) {
                if (!entered.contains(a)) {
                    entered.add(a);
                }
            }
            enterWithDescendants(target, entered);
        }
        return finish(from, t, actions, entered);
    }

    /** Adds entry blocks for the entered states and builds the step. */
    private Step finish(String from, TransitionInfo t, List<ActionSite> before, List<String> entered) {
        List<ActionSite> actions = new ArrayList<>(before);
        boolean ends = false;
        for (String e : entered) {
            StateInfo s = states.get(e);
            addBlock(actions, s.onentry(), BlockKind.ONENTRY, e, null);
            if (s.initial() != null && entered.contains(s.initial())) {
                addBlock(actions, s.initialActions(), BlockKind.INITIAL, e, null);
            }
            ends |= s.kind() == StateKind.FINAL && s.parent() == null;
        }
        ends |= actions.stream().anyMatch(a -> a.primitive() == Primitive.TERMINATE);
        Set<String> after = new LinkedHashSet<>();
        if (!ends) {
            for (String e : entered) {
                after.addAll(ancestorsOrSelf(e));
            }
        }
        return new Step(from, t, actions, entered, after, ends);
    }

    /** Enters {@code id} and, recursively, its initial child or (parallel) all its children. */
    private void enterWithDescendants(String id, List<String> entered) {
        StateInfo s = states.get(id);
        if (s == null) {
            return;
        }
        if (!entered.contains(id)) {
            entered.add(id);
        }
        if (s.kind() == StateKind.PARALLEL) {
            for (String c : children(id)) {
                enterWithDescendants(c, entered);
            }
        } else if (s.initial() != null) {
            // The initial child may sit deeper: enter the chain down to it.
            List<String> chain = new ArrayList<>();
            for (String a : ancestorsOrSelf(s.initial())) {
                if (a.equals(id)) {
                    break;
                }
                chain.add(a);
            }
            Collections.reverse(chain);
            for (String a : chain.subList(0, Math.max(0, chain.size() - 1))) {
                if (!entered.contains(a)) {
                    entered.add(a);
                }
            }
            enterWithDescendants(s.initial(), entered);
        }
    }

    /**
     * The transition's domain: the deepest state that stays active. A transition back to its own
     * source leaves and re-enters the source; one to proper descendants only stays in the source.
     */
    private String domain(TransitionInfo t) {
        boolean allBelow = true;
        for (String target : t.targets()) {
            allBelow &= !target.equals(t.source()) && ancestorsOrSelf(target).contains(t.source());
        }
        if (allBelow) {
            return t.source();
        }
        String parent = parentOf(t.source());
        if (parent == null) {
            return null;
        }
        for (String candidate : ancestorsOrSelf(parent)) {
            boolean containsAll = true;
            for (String target : t.targets()) {
                containsAll &= ancestorsOrSelf(target).contains(candidate) && !target.equals(candidate);
            }
            if (containsAll) {
                return candidate;
            }
        }
        return null;
    }

    private static void addBlock(List<ActionSite> out, List<ActionTemplate> block, BlockKind kind, String state,
            TransitionInfo t) {
        for (int i = 0; i < block.size(); i++) {
            out.add(new ActionSite(block.get(i), kind, state, t, i));
        }
    }
}
