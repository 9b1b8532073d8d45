package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.event.BasicEventDefinition;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.HistoryReads;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.tools.SpecGraph;
import io.statecast.messagestore.tools.SpecGraph.ActionSite;
import io.statecast.messagestore.tools.SpecGraph.Step;
import io.statecast.messagestore.tools.TimerAnalysis;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@link Rule#IMPOSSIBLE_HISTORY_READ}: an XPath ({@code action:set xpath}) or a composite event's
 * XQuery reads {@code Event[@name='x']} (as {@code HistoryReads} determines) where no run can
 * have recorded {@code x} in the history when the expression runs:
 * <ul>
 *   <li>{@code x} is no basic event (a typo, or a composite event: the history records basic
 *       events only);</li>
 *   <li>{@code x} is a timer event, and none of the timers it matches can have expired before:
 *       the action runs only in steps taken in states (or at the start) that no state where such
 *       a timer can be pending ({@link TimerAnalysis}) leads to; for a composite event, in none of
 *       the states where one of its constituents can fire.</li>
 * </ul>
 * A declared message event is never reported: a message may arrive at any time once the instance
 * exists. Expressions that may read every event ({@code //Message}) tell nothing and are skipped.
 * Only actions that some run executes are checked.
 */
final class HistoryReadCheck implements Check {

    /** Marks "at the start" among the states a site runs in. */
    private static final String START = "\u0000start";

    @Override
    public void run(LintContext ctx) {
        ServiceSpec spec = ctx.spec();
        SpecGraph g = ctx.graph();
        TimerAnalysis timers = ctx.timers();
        Map<ActionSite, Set<String>> runsIn = new LinkedHashMap<>();
        for (ActionSite a : g.start().actions()) {
            runsIn.computeIfAbsent(a, k -> new LinkedHashSet<>()).add(START);
        }
        for (String s : g.reachable()) {
            for (Step step : g.stepsFrom(s)) {
                for (ActionSite a : step.actions()) {
                    runsIn.computeIfAbsent(a, k -> new LinkedHashSet<>()).add(s);
                }
            }
        }
        Set<FieldAssignment> done = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Map.Entry<ActionSite, Set<String>> e : runsIn.entrySet()) {
            for (FieldAssignment f : e.getKey().action().assignments()) {
                if (f.value() instanceof FieldValue.HistoryQuery q && done.add(f)) {
                    String what = "the xpath of " + f.path() + " (" + e.getKey().primitive().specName() + ")";
                    check(ctx, spec, timers, q.path().reads(), e.getValue(), f.line(), "set", what);
                }
            }
        }
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            Set<String> evaluatedIn = new LinkedHashSet<>();
            for (String constituent : c.constituents()) {
                BasicEventDefinition b = spec.basicEvent(constituent);
                if (b instanceof MessageEventDefinition) {
                    evaluatedIn.addAll(g.reachable());
                } else if (b instanceof TimerEventDefinition t) {
                    evaluatedIn.addAll(timers.statesWhereItFires(t));
                }
            }
            check(ctx, spec, timers, c.query().reads(), evaluatedIn, c.line(), "Event",
                    "the XQuery of composite event " + c.name());
        }
    }

    private static void check(LintContext ctx, ServiceSpec spec, TimerAnalysis timers, HistoryReads reads,
            Set<String> runsIn, int line, String element, String what) {
        if (reads.allEvents()) {
            return;
        }
        for (String name : reads.eventNames()) {
            BasicEventDefinition b = spec.basicEvent(name);
            if (b == null) {
                boolean composite = spec.compositeEvents().stream().anyMatch(c -> c.name().equals(name));
                ctx.report(Rule.IMPOSSIBLE_HISTORY_READ, line, element, what + " reads history event '" + name
                        + "', " + (composite ? "a composite event; the history records basic events only"
                                : "but no basic event has that name" + suggestion(spec, name)));
            } else if (b instanceof TimerEventDefinition t && !runsIn.isEmpty()) {
                Set<String> after = timers.statesAfterPossibleExpiry(t);
                boolean possible = false;
                for (String s : runsIn) {
                    possible |= after.contains(s);
                }
                if (!possible) {
                    ctx.report(Rule.IMPOSSIBLE_HISTORY_READ, line, element, what + " reads timer event " + name
                            + ", but no timer it waits for can have expired when this runs (in "
                            + describe(ctx, runsIn) + ")");
                }
            }
        }
    }

    private static String describe(LintContext ctx, Set<String> runsIn) {
        Set<String> states = new LinkedHashSet<>(runsIn);
        boolean start = states.remove(START);
        states = TimerCheck.atomic(ctx.graph(), states);
        if (states.isEmpty()) {
            return "the initial entry";
        }
        return (start ? "the initial entry and " : "") + TimerCheck.list(states);
    }

    /** ", did you mean 'x'?" for a declared basic event at edit distance at most 2, else "". */
    private static String suggestion(ServiceSpec spec, String name) {
        String best = null;
        int bestDistance = 3;
        for (String candidate : basicNames(spec)) {
            int d = distance(name, candidate, bestDistance);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best == null ? "" : " (did you mean '" + best + "'?)";
    }

    private static Set<String> basicNames(ServiceSpec spec) {
        Set<String> out = new LinkedHashSet<>();
        spec.messageEvents().forEach(m -> out.add(m.name()));
        spec.timerEvents().forEach(t -> out.add(t.name()));
        return out;
    }

    /** Levenshtein distance, or {@code limit} when it is at least that (names are short). */
    static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) >= limit || a.length() > 128 || b.length() > 128) {
            return limit;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return Math.min(prev[b.length()], limit);
    }
}
