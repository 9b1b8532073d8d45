package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.spec.SpecStructure.StateInfo;
import io.statecast.messagestore.tools.SpecGraph;
import io.statecast.messagestore.tools.TimerAnalysis;
import io.statecast.messagestore.tools.TimerAnalysis.SetSite;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@link Rule#UNHANDLED_TIMER}: a {@code setTimer} that some run executes, whose timer can be
 * pending only in states where no transition reacts to its expiry (see {@link TimerAnalysis} for
 * where a timer can be pending and what reacting means), or that is cancelled or outlived by the
 * end of the instance in the very step that sets it. Its expiry is always ignored: usually the
 * transition on the timer event sits in the wrong state, or the timer should have been cancelled.
 * A {@code setTimer} whose identifier comes from an XPath is not checked (the loader warns).
 */
final class TimerCheck implements Check {

    private static final int MAX_LISTED = 8;

    @Override
    public void run(LintContext ctx) {
        TimerAnalysis timers = ctx.timers();
        for (SetSite set : timers.sets()) {
            if (set.id().isEmpty()) {
                continue;
            }
            int id = set.id().getAsInt();
            Set<String> events = timers.eventsReacting(set.id());
            int line = set.site().action().line();
            if (set.region().isEmpty()) {
                ctx.report(Rule.UNHANDLED_TIMER, line, "execute", "setTimer(" + id + ") never expires: every step "
                        + "that sets it also cancels or re-sets it, or ends the instance");
            } else if (timers.handlingStates(set).isEmpty()) {
                ctx.report(Rule.UNHANDLED_TIMER, line, "execute", "timer " + id + " set here can expire only in "
                        + list(atomic(ctx.graph(), set.region())) + ", where no transition is on " + orList(events)
                        + ": its expiry is always ignored");
            }
        }
    }

    /** The atomic states among {@code states}, in document order: what an author thinks of as "where". */
    static Set<String> atomic(SpecGraph g, Set<String> states) {
        Set<String> out = new LinkedHashSet<>();
        for (StateInfo s : g.states()) {
            if (states.contains(s.id()) && g.children(s.id()).isEmpty()) {
                out.add(s.id());
            }
        }
        return out.isEmpty() ? states : out;
    }

    static String list(Set<String> names) {
        StringBuilder sb = new StringBuilder(names.size() == 1 ? "state " : "states ");
        int i = 0;
        for (String n : names) {
            if (i == MAX_LISTED) {
                sb.append(", … (").append(names.size()).append(" in all)");
                break;
            }
            sb.append(i == 0 ? "" : ", ").append(n);
            i++;
        }
        return sb.toString();
    }

    private static String orList(Set<String> events) {
        return events.size() == 1 ? events.iterator().next() : "any of " + String.join(", ", events);
    }
}
