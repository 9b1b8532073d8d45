package io.statecast.messagestore.tools;

import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.spec.ActionField;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.tools.SpecGraph.ActionSite;
import io.statecast.messagestore.tools.SpecGraph.Step;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Where each {@code setTimer} of a spec can be pending, and so where its expiry can fire.
 *
 * <h2>Definition</h2>
 * A timer set by the {@code setTimer} at site <i>X</i> with identifier <i>k</i> is <em>pending in
 * state S</em> if some run executes <i>X</i> and then is in <i>S</i>, and on the way
 * <ul>
 *   <li>no later action of the same step, and no later step, executes {@code setTimer} or
 *       {@code cancelTimer} with identifier <i>k</i> (a new {@code setTimer} is a site of its own);</li>
 *   <li>no step is taken on a timer event that waits for exactly timer <i>k</i> (the timer fired);</li>
 *   <li>the instance did not end ({@code terminate}, or a top-level {@code <final>}).</li>
 * </ul>
 * Its <em>region</em> is the set of such states, plus the states active together with them in
 * {@code <parallel>} regions. The timer can expire in every state of its region. It is
 * <em>handled</em> there if some transition available in that state is on a timer event whose
 * filter matches <i>k</i> (including {@code <Timer/>}), or on a composite event with such a
 * constituent.
 *
 * <p>The analysis over-approximates regions, so a timer reported as unhandled really is: every
 * transition is assumed possible, a {@code cancelTimer} whose identifier comes from an XPath is
 * assumed to cancel nothing, a step on {@code <Timer/>} or on a composite event is assumed not to
 * consume the timer. A {@code setTimer} whose identifier comes from an XPath may set any timer; its
 * region counts for every timer event. Parameter identifiers take the parameter's default value.
 */
public final class TimerAnalysis {

    /**
     * One {@code setTimer} that some run executes.
     *
     * @param site   where it is written
     * @param id     the timer identifier, empty when an XPath computes it
     * @param region the states in which the timer can be pending
     */
    public record SetSite(ActionSite site, OptionalInt id, Set<String> region) {

        /** Copies the region. */
        public SetSite {
            region = Collections.unmodifiableSet(new LinkedHashSet<>(region));
        }
    }

    private final SpecGraph graph;
    private final ServiceSpec spec;
    private final List<SetSite> sets;
    private final Map<String, Set<String>> fires = new LinkedHashMap<>();
    private final Map<String, Set<String>> afterExpiry = new LinkedHashMap<>();

    private TimerAnalysis(SpecGraph graph) {
        this.graph = graph;
        this.spec = graph.spec();
        Map<ActionSite, List<Step>> occurrences = new LinkedHashMap<>();
        collect(graph.start(), occurrences);
        for (String s : graph.reachable()) {
            for (Step step : graph.stepsFrom(s)) {
                collect(step, occurrences);
            }
        }
        List<SetSite> out = new ArrayList<>();
        for (Map.Entry<ActionSite, List<Step>> e : occurrences.entrySet()) {
            OptionalInt id = timerId(spec, e.getKey().action());
            out.add(new SetSite(e.getKey(), id, region(e.getKey(), id, e.getValue())));
        }
        this.sets = List.copyOf(out);
        for (TimerEventDefinition t : spec.timerEvents()) {
            Set<String> where = new LinkedHashSet<>();
            for (SetSite set : sets) {
                if (set.id().isEmpty() || t.filter().matches(set.id().getAsInt())) {
                    where.addAll(set.region());
                }
            }
            fires.put(t.name(), Collections.unmodifiableSet(where));
            afterExpiry.put(t.name(), Collections.unmodifiableSet(graph.reachableFrom(where)));
        }
    }

    /** The analysis of a spec's graph. */
    public static TimerAnalysis of(SpecGraph graph) {
        return new TimerAnalysis(graph);
    }

    /** Every {@code setTimer} some run executes, in the order first met. */
    public List<SetSite> sets() {
        return sets;
    }

    /**
     * The identifier a {@code setTimer} or {@code cancelTimer} uses: a literal, or a parameter's
     * effective value; empty for an XPath, or for another primitive.
     */
    public static OptionalInt timerId(ServiceSpec spec, ActionTemplate action) {
        if (action.primitive() != Primitive.SET_TIMER && action.primitive() != Primitive.CANCEL_TIMER) {
            return OptionalInt.empty();
        }
        FieldValue v = action.valueOf(ActionField.TIMER_IDENTIFIER);
        String text = null;
        if (v instanceof FieldValue.Literal lit) {
            text = lit.text();
        } else if (v instanceof FieldValue.ParameterRef ref && spec.parameters().contains(ref.name())) {
            text = spec.parameters().value(ref.name());
        }
        if (text == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty(); // the loader checked the value; nothing sensible to say here
        }
    }

    /** The timer events an expiry of timer {@code id} fires (all timer events when unknown). */
    public List<TimerEventDefinition> eventsFiredBy(OptionalInt id) {
        List<TimerEventDefinition> out = new ArrayList<>();
        for (TimerEventDefinition t : spec.timerEvents()) {
            if (id.isEmpty() || t.filter().matches(id.getAsInt())) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * The events through which an expiry of timer {@code id} can move the machine: the timer
     * events it fires and the composite events they are constituents of.
     */
    public Set<String> eventsReacting(OptionalInt id) {
        Set<String> out = new LinkedHashSet<>();
        for (TimerEventDefinition t : eventsFiredBy(id)) {
            out.add(t.name());
            for (CompositeEventDefinition c : spec.compositesTriggeredBy(t.name())) {
                out.add(c.name());
            }
        }
        return out;
    }

    /** The states of the site's region in which a transition reacts to the timer's expiry. */
    public Set<String> handlingStates(SetSite set) {
        Set<String> events = eventsReacting(set.id());
        Set<String> out = new LinkedHashSet<>();
        for (String s : set.region()) {
            for (String e : events) {
                if (graph.handles(s, e)) {
                    out.add(s);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * The states in which timer event {@code event} may already be in the history: those
     * reachable from a state where a timer it matches can expire.
     */
    public Set<String> statesAfterPossibleExpiry(TimerEventDefinition event) {
        return afterExpiry.getOrDefault(event.name(), Set.of());
    }

    /** The states in which timer event {@code event} can fire (its timer can expire there). */
    public Set<String> statesWhereItFires(TimerEventDefinition event) {
        return fires.getOrDefault(event.name(), Set.of());
    }

    // ------------------------------------------------------------------------------------------

    private static void collect(Step step, Map<ActionSite, List<Step>> occurrences) {
        for (ActionSite a : step.actions()) {
            if (a.primitive() == Primitive.SET_TIMER) {
                occurrences.computeIfAbsent(a, k -> new ArrayList<>()).add(step);
            }
        }
    }

    private Set<String> region(ActionSite site, OptionalInt id, List<Step> steps) {
        Set<String> region = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        for (Step step : steps) {
            if (step.ends() || overriddenLater(step, site, id)) {
                continue;
            }
            for (String s : step.after()) {
                if (region.add(s)) {
                    todo.add(s);
                }
            }
        }
        Set<String> firedBy = new LinkedHashSet<>();
        if (id.isPresent()) {
            for (TimerEventDefinition t : spec.timerEvents()) {
                if (t.filter().timerId() == id.getAsInt()) {
                    firedBy.add(t.name());
                }
            }
        }
        while (!todo.isEmpty()) {
            String s = todo.poll();
            for (String c : graph.coActive(s)) {
                if (region.add(c)) {
                    todo.add(c);
                }
            }
            for (Step step : graph.stepsFrom(s)) {
                if (step.ends() || firedBy.contains(step.event()) || touches(step.actions(), 0, id)) {
                    continue;
                }
                for (String n : step.after()) {
                    if (region.add(n)) {
                        todo.add(n);
                    }
                }
            }
        }
        return region;
    }

    /** Whether an action after {@code site} in the step sets or cancels the same timer. */
    private boolean overriddenLater(Step step, ActionSite site, OptionalInt id) {
        int at = step.actions().indexOf(site);
        return touches(step.actions(), at + 1, id);
    }

    /** Whether an action from index {@code from} on sets or cancels timer {@code id} (known ids only). */
    private boolean touches(List<ActionSite> actions, int from, OptionalInt id) {
        if (id.isEmpty()) {
            return false;
        }
        for (int i = from; i < actions.size(); i++) {
            OptionalInt other = timerId(spec, actions.get(i).action());
            if (other.isPresent() && other.getAsInt() == id.getAsInt()) {
                return true;
            }
        }
        return false;
    }
}
