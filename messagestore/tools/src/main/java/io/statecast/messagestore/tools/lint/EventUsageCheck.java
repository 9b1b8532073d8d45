package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.event.BasicEventDefinition;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.HistoryReads;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecStructure.TransitionInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link Rule#UNUSED_EVENT}: a basic event is used when a transition is on it, a composite event
 * has it as a constituent, or some XPath or XQuery may read it from the history (a message event
 * kept only so that a query can look at it is in use); a composite event is used when a
 * transition is on it. Replaces the loader's warning, which does not count history reads.
 */
final class EventUsageCheck implements Check {

    @Override
    public void run(LintContext ctx) {
        ServiceSpec spec = ctx.spec();
        Set<String> onTransitions = new HashSet<>();
        for (TransitionInfo t : spec.structure().transitions()) {
            onTransitions.add(t.event());
        }
        Set<String> constituents = new HashSet<>();
        HistoryReads reads = HistoryReads.NONE;
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            constituents.addAll(c.constituents());
            reads = reads.union(c.query().reads());
        }
        for (ActionTemplate a : spec.actions()) {
            for (FieldAssignment f : a.assignments()) {
                if (f.value() instanceof FieldValue.HistoryQuery q) {
                    reads = reads.union(q.path().reads());
                }
            }
        }
        List<BasicEventDefinition> basics = new ArrayList<>(spec.messageEvents());
        basics.addAll(spec.timerEvents());
        for (BasicEventDefinition b : basics) {
            String n = b.name();
            if (!onTransitions.contains(n) && !constituents.contains(n) && !reads.reads(n)) {
                String kind = b instanceof MessageEventDefinition ? "message event " : "timer event ";
                ctx.report(Rule.UNUSED_EVENT, b.line(), "Event", kind + n + " is declared but no transition, "
                        + "composite event, XPath or XQuery uses it");
            }
        }
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            if (!onTransitions.contains(c.name())) {
                ctx.report(Rule.UNUSED_EVENT, c.line(), "Event", "composite event " + c.name()
                        + " is declared but no transition is on it (its query would run after every "
                        + String.join(", ", c.constituents()) + " for nothing)");
            }
        }
    }
}
