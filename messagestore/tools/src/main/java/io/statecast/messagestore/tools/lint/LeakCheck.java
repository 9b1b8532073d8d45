package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.spec.Scope;
import io.statecast.messagestore.spec.SpecStructure.StateInfo;
import io.statecast.messagestore.tools.SpecGraph;
import io.statecast.messagestore.tools.SpecGraph.Step;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link Rule#LEAKING_STATE}: an atomic state (one without child states) that some run can enter
 * and from which no run ends the instance: no path of transitions reaches a step that executes
 * {@code terminate} or enters a top-level {@code <final>}. Every transition is assumed possible,
 * so a state reported can really never end: an instance in it stays in memory for good.
 *
 * <p>A state can end when a step taken in it ends the instance, when a step taken in it leads to
 * an atomic state that can end, or when a state of another region of an enclosing
 * {@code <parallel>} can end. A compound state can end when one of its children can. When the
 * initial state cannot end, no state can; that is reported once, at the initial state. States only
 * the node's own instance reaches (through the spec's {@code <Start>} event) are not reported: that
 * instance is meant to live as long as its service is deployed. Under scope {@code node} with a
 * {@code <Start>}, the node's own instance is the only one, so nothing is reported.
 */
final class LeakCheck implements Check {

    @Override
    public void run(LintContext ctx) {
        SpecGraph g = ctx.graph();
        if (ctx.spec().service().scope() == Scope.NODE && ctx.spec().service().startsOnDeploy()) {
            return; // every message reaches the node's own instance, which lives with its service
        }
        if (g.start().ends()) {
            return;
        }
        Set<String> canEnd = canEnd(g);
        String initial = ctx.spec().structure().initialState();
        boolean anyEnds = false;
        for (String s : g.start().after()) {
            anyEnds |= canEnd.contains(s) && g.children(s).isEmpty();
        }
        if (!anyEnds) {
            StateInfo i = g.state(initial);
            ctx.report(Rule.LEAKING_STATE, i.line(), elementOf(i), "no run of this spec ever ends its instance: "
                    + "from the initial state " + initial + " no transition leads to a terminate or a top-level "
                    + "<final> state, so every instance stays in memory for good");
            return;
        }
        Set<String> ownOnly = g.reachableOnlyByStart(); // the node's own instance: ends with its service
        for (StateInfo s : g.states()) {
            if (g.reachable().contains(s.id()) && g.children(s.id()).isEmpty() && !canEnd.contains(s.id())
                    && !ownOnly.contains(s.id())) {
                ctx.report(Rule.LEAKING_STATE, s.line(), elementOf(s), "state " + s.id() + " leaks: once an "
                        + "instance enters it, no path leads to a terminate or a top-level <final> state");
            }
        }
    }

    static String elementOf(StateInfo s) {
        return switch (s.kind()) {
            case STATE -> "state";
            case PARALLEL -> "parallel";
            case FINAL -> "final";
        };
    }

    /** The least fixpoint described in the class comment. */
    static Set<String> canEnd(SpecGraph g) {
        Set<String> out = new LinkedHashSet<>();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (StateInfo s : g.states()) {
                if (!out.contains(s.id()) && ends(g, s.id(), out)) {
                    out.add(s.id());
                    changed = true;
                }
            }
        }
        return out;
    }

    private static boolean ends(SpecGraph g, String id, Set<String> canEnd) {
        for (String c : g.children(id)) {
            if (canEnd.contains(c)) {
                return true;
            }
        }
        for (String c : g.coActive(id)) {
            if (canEnd.contains(c) && g.children(c).isEmpty()) {
                return true;
            }
        }
        for (Step step : g.stepsFrom(id)) {
            if (step.ends()) {
                return true;
            }
            for (String d : destinations(g, step)) {
                if (canEnd.contains(d)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The atomic states a step leads to ({@code from} itself for a targetless transition). */
    private static List<String> destinations(SpecGraph g, Step step) {
        List<String> out = new ArrayList<>();
        if (step.entered().isEmpty()) {
            out.add(step.from());
            return out;
        }
        for (String e : step.entered()) {
            if (g.children(e).isEmpty()) {
                out.add(e);
            }
        }
        return out;
    }
}
