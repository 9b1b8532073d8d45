package io.statecast.messagestore.spec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.scxml.ErrorReporter;
import org.apache.commons.scxml.SCXMLHelper;
import org.apache.commons.scxml.model.History;
import org.apache.commons.scxml.model.ModelException;
import org.apache.commons.scxml.model.Path;
import org.apache.commons.scxml.model.SCXML;
import org.apache.commons.scxml.model.State;
import org.apache.commons.scxml.model.Transition;
import org.apache.commons.scxml.model.TransitionTarget;
import org.apache.commons.scxml.semantics.SCXMLSemanticsImpl;

/**
 * Every step a spec can take from a configuration of one atomic state, and its initial entry,
 * worked out once at load time with Commons SCXML's own building blocks (exited states,
 * seed set, target states, ancestor closures, its state order, the legal-configuration check),
 * so that a step at run time is two map lookups instead of a dozen hash sets.
 *
 * <p>Why it gives the same answer as the engine's per-step algorithm: in such a configuration
 * the enabled transitions all lie on one chain (the state and its ancestors); with no
 * {@code cond}, exact event names and at most one transition per state and event (the
 * validator's guarantees, re-checked here), the engine keeps only the innermost one. What follows
 * depends only on that transition and that state. Anything else — a configuration of several
 * states (inside a {@code <parallel>}), a state whose chain has a transition this table cannot
 * decide statically, an illegal outcome (the engine reports it), a model with history or invoke —
 * is left to the general algorithm ({@link #plan} answers {@code null}).
 *
 * <p>Immutable once built; safe to share between threads.
 */
final class StepTable {

    /** What the table knows about one atomic state. */
    private record StatePlans(StepPlan stay, Map<String, StepPlan> byEvent) {
    }

    /**
     * Most plans a table holds. A hostile spec within the document limits could pair thousands of
     * states with thousands of an ancestor's transitions; states past the budget keep the general
     * algorithm.
     */
    static final int MAX_PLANS = 1 << 16;

    /** Marks a (state, event) whose step the general algorithm must take. */
    private static final StepPlan GENERAL = new StepPlan(null, List.of(), List.of(), List.of());

    private final Map<TransitionTarget, StatePlans> states;
    private final List<Object> initialTargets;
    private final List<Object> initialEntries;
    private final List<ExecuteAction> initialProgram;

    private StepTable(Map<TransitionTarget, StatePlans> states, List<Object> initialTargets,
            List<Object> initialEntries) {
        this.states = states;
        this.initialTargets = initialTargets;
        this.initialEntries = initialEntries;
        this.initialProgram = initialEntries == null ? null : StepPlan.entryProgram(initialEntries);
    }

    /** A table that covers nothing: every step takes the general algorithm. */
    static StepTable empty() {
        return new StepTable(Map.of(), null, null);
    }

    /**
     * The step from configuration {@code {state}} on event {@code event}, or {@code null} when the
     * general algorithm must compute it.
     */
    StepPlan plan(Object state, String event) {
        StatePlans p = states.get(state);
        if (p == null) {
            return null;
        }
        StepPlan plan = p.byEvent().get(event);
        if (plan == null) {
            return p.stay();
        }
        return plan == GENERAL ? null : plan;
    }

    /** Whether steps from {@code state} are all decided by the table (for tests). */
    boolean covers(TransitionTarget state) {
        StatePlans p = states.get(state);
        return p != null && !p.byEvent().containsValue(GENERAL);
    }

    /** The atomic states the machine starts in, or {@code null} when not precomputed. */
    List<Object> initialTargets() {
        return initialTargets;
    }

    /** The states entered at start, outermost first, or {@code null} when not precomputed. */
    List<Object> initialEntries() {
        return initialEntries;
    }

    /**
     * The {@code <action:execute>} elements the start runs, in order, or {@code null} when the
     * start is not precomputed or runs an action only the engine can run.
     */
    List<ExecuteAction> initialProgram() {
        return initialProgram;
    }

    /**
     * Works out the table of {@code model}.
     *
     * @param general Commons SCXML's own semantics, for its seed-set and target-state rules
     * @param order   Commons SCXML's state order (exit order; reversed, entry order)
     */
    static StepTable build(SCXML model, SCXMLSemanticsImpl general, Comparator<Object> order) {
        List<TransitionTarget> atomic = new ArrayList<>();
        for (Object o : model.getTargets().values()) {
            TransitionTarget tt = (TransitionTarget) o;
            if (tt instanceof History || (tt instanceof State s && s.getInvoke() != null)) {
                return empty();
            }
            if (tt instanceof State s && s.isSimple()) {
                atomic.add(tt);
            }
        }
        Quiet quiet = new Quiet();
        Map<TransitionTarget, StatePlans> states = new IdentityHashMap<>();
        int budget = MAX_PLANS;
        for (TransitionTarget s : atomic) {
            Map<String, Transition> innermost = innermostTransitions(s);
            if (innermost == null) {
                continue;
            }
            budget -= innermost.size() + 1;
            if (budget < 0) {
                break;
            }
            states.put(s, plansOf(s, innermost, general, order, quiet));
        }
        List<Object> targets = null;
        List<Object> entries = null;
        Set<Object> initial = new HashSet<>();
        List<Object> entering = new ArrayList<>();
        quiet.reset();
        try {
            general.determineInitialStates(model, initial, entering, quiet, null);
            if (!quiet.any && !initial.isEmpty()) {
                targets = List.copyOf(initial);
                entries = List.copyOf(entering);
            }
        } catch (ModelException | RuntimeException e) {
            // leave the start to the engine, which reports the problem
        }
        return new StepTable(Collections.unmodifiableMap(states), targets, entries);
    }

    /**
     * For each event, the transition the engine would select from configuration {@code {s}}: the
     * innermost on the chain from {@code s} up. {@code null} when a transition on the chain has a
     * condition, no event, a wildcard or a sibling on the same event (the validator refuses all of
     * them; the engine's filter would then decide at run time).
     */
    private static Map<String, Transition> innermostTransitions(TransitionTarget s) {
        Map<String, Transition> innermost = new HashMap<>();
        for (TransitionTarget a = s; a != null; a = a.getParent()) {
            Set<String> own = new HashSet<>();
            for (Object o : a.getTransitionsList()) {
                Transition t = (Transition) o;
                String event = t.getEvent() == null ? "" : t.getEvent().trim();
                if (event.isEmpty() || event.equals("*") || event.endsWith(".*")
                        || !SCXMLHelper.isStringEmpty(t.getCond()) || !own.add(event)) {
                    return null;
                }
                innermost.putIfAbsent(event, t);
            }
        }
        return innermost;
    }

    /** The plans of atomic state {@code s}. */
    private static StatePlans plansOf(TransitionTarget s, Map<String, Transition> innermost,
            SCXMLSemanticsImpl general, Comparator<Object> order, Quiet quiet) {
        Map<String, StepPlan> byEvent = new HashMap<>();
        for (Map.Entry<String, Transition> e : innermost.entrySet()) {
            StepPlan p = null;
            quiet.reset();
            try {
                p = follow(s, e.getValue(), general, order, quiet);
            } catch (ModelException | RuntimeException ex) {
                p = null;
            }
            byEvent.put(e.getKey(), p == null || quiet.any ? GENERAL : p);
        }
        StepPlan stay = new StepPlan(null, List.of(), List.of(), List.of(s));
        return new StatePlans(stay, Collections.unmodifiableMap(byEvent));
    }

    /**
     * Commons SCXML's follow-transitions rule for configuration {@code {s}} and the single
     * transition {@code t}; {@code null} when the outcome is not a legal configuration.
     */
    private static StepPlan follow(TransitionTarget s, Transition t, SCXMLSemanticsImpl general,
            Comparator<Object> order, ErrorReporter quiet) throws ModelException {
        Set<Object> current = Set.of(s);
        List<Object> taken = List.of(t);
        @SuppressWarnings("unchecked")
        Set<Object> exited = SCXMLHelper.getStatesExited(t, current);
        Set<Object> residual = new HashSet<>(current);
        residual.removeAll(exited);
        @SuppressWarnings("unchecked")
        Set<Object> seed = general.seedTargetSet(residual, taken, quiet);
        Set<Object> targets = new HashSet<>(seed);
        general.determineTargetStates(targets, quiet, null);
        @SuppressWarnings("unchecked")
        Set<Object> entered = SCXMLHelper.getAncestorClosure(targets, seed);
        for (Object p : t.getPaths()) {
            entered.addAll(((Path) p).getDownwardSegment());
        }
        Set<Object> configuration = new LinkedHashSet<>(targets);
        configuration.addAll(residual);
        if (!SCXMLHelper.isLegalConfig(configuration, quiet)) {
            return null;
        }
        Object[] exits = exited.toArray();
        Arrays.sort(exits, order);
        Object[] entries = entered.toArray();
        Arrays.sort(entries, order);
        List<Object> entryOrder = Arrays.asList(entries);
        Collections.reverse(entryOrder);
        return new StepPlan(t, Arrays.asList(exits), entryOrder, new ArrayList<>(configuration));
    }

    /** Records whether Commons SCXML reported anything while a plan was worked out. */
    private static final class Quiet implements ErrorReporter {
        private boolean any;

        void reset() {
            any = false;
        }

        @Override
        public void onError(String errCode, String errDetail, Object errCtx) {
            any = true;
        }
    }
}
