package io.statecast.messagestore.cli;

import io.statecast.messagestore.event.AttributeTest;
import io.statecast.messagestore.event.AttributeValues;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.event.TimerFilter;
import io.statecast.messagestore.spec.Parameter;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.spec.SpecStructure;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec info FILE…}: what each spec declares, one block per file, blank line
 * between. Exit status 1 when any spec does not load, 2 when a file cannot be read.
 */
@Command(name = "info",
        description = {"Show each spec's service, states, events, timers, primitives and parameters.",
            "Exit status 0: all load, 1: a spec does not load, 2: bad usage or a file cannot be read."})
final class SpecInfoCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Spec files.")
    private List<Path> files;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Integer refused = InputFiles.refuseUnreadable(files, spec.commandLine().getErr());
        if (refused != null) {
            return refused;
        }
        int status = CommandLine.ExitCode.OK;
        try (SpecLoader loader = new SpecLoader()) {
            for (int i = 0; i < files.size(); i++) {
                Path file = files.get(i);
                if (i > 0) {
                    out.println();
                }
                if (files.size() > 1) {
                    out.println("file:        " + file);
                }
                try {
                    print(loader.load(file), out);
                } catch (SpecException e) {
                    for (Problem p : e.problems()) {
                        out.println(p.format(file.toString()));
                    }
                    status = CommandLine.ExitCode.SOFTWARE;
                }
            }
        }
        out.flush();
        return status;
    }

    static void print(ServiceSpec s, PrintWriter out) {
        out.println("service:     " + s.service().name());
        out.println("ServiceID:   " + s.service().serviceId());
        StringJoiner modes = new StringJoiner(", ");
        s.service().deliveryModes().stream().sorted().forEach(m -> modes.add(AttributeValues.name(m)));
        out.println("delivery:    " + modes);
        out.println("scope:       " + s.service().scope().label());
        if (s.service().scopeKey() != null) {
            out.println("scope key:   " + s.service().scopeKey().text() + (s.service().scopeKey().path().compiled() != null
                    ? " (compiled to Java)" : " (on Saxon)"));
        }
        if (s.service().startsOnDeploy()) {
            out.println("start:       " + s.service().start() + " (fired in the node's own instance when deployed)");
        }
        if (!s.service().inFlight().isEmpty()) {
            out.println("in flight:   " + String.join(" ", s.service().inFlight()) + " (the send window counts own messages here)");
        }
        out.println("created by:  " + (!s.service().createdBy().isEmpty() ? String.join(" ", s.service().createdBy())
                : s.service().scope().perMessage() ? "data messages (a control message about a message never seen "
                + "creates no instance)" : "any message an event matches"));
        StringJoiner promises = new StringJoiner(" ");
        s.service().promises().forEach(p -> promises.add(p.label()));
        out.println("promises:    " + (promises.length() == 0 ? "none (best effort)" : promises.toString()));
        if (!s.service().description().isEmpty()) {
            out.println("description: " + s.service().description());
        }
        out.println("metaops:     messageStoreWillForwardMessage=" + s.metaops().messageStoreWillForwardMessage()
                + ", processIntermediateUnicastMessage=" + s.metaops().processIntermediateUnicastMessage()
                + (s.metaops().receiveOwnUnicast() ? ", receiveOwnUnicast=true" : ""));
        out.println("sha256:      " + s.sha256Hex());

        SpecStructure st = s.structure();
        out.println("states (" + st.states().size() + "), initial " + st.initialState() + ":");
        for (SpecStructure.StateInfo i : st.states()) {
            long n = st.transitions().stream().filter(t -> t.source().equals(i.id())).count();
            out.println("  " + i.id() + (i.kind() == SpecStructure.StateKind.STATE ? "" : " (" + i.kind().name()
                    .toLowerCase(Locale.ROOT) + ")") + (i.parent() == null ? "" : " in " + i.parent()) + ": " + n
                    + " transition" + (n == 1 ? "" : "s"));
        }

        out.println("message events (" + s.messageEvents().size() + "):");
        for (MessageEventDefinition e : s.messageEvents()) {
            StringJoiner f = new StringJoiner(", ");
            for (AttributeTest t : e.filter().tests()) {
                f.add(t.attribute().elementName() + "=" + describe(t));
            }
            out.println("  " + e.name() + ": " + (f.length() == 0 ? "any message" : f.toString())
                    + (e.historyXmlNeeded() ? "  [read by queries]" : ""));
        }
        out.println("timer events (" + s.timerEvents().size() + "):");
        for (TimerEventDefinition e : s.timerEvents()) {
            out.println("  " + e.name() + ": " + (e.filter().timerId() == TimerFilter.ANY_TIMER ? "any timer"
                    : "timer " + e.filter().timerId()) + (e.historyXmlNeeded() ? "  [read by queries]" : ""));
        }
        out.println("composite events (" + s.compositeEvents().size() + "):");
        for (CompositeEventDefinition c : s.compositeEvents()) {
            out.println("  " + c.name() + ": after " + String.join(", ", c.constituents()) + "; reads "
                    + c.query().reads());
        }
        TreeSet<String> prims = new TreeSet<>();
        for (Primitive p : s.primitivesUsed()) {
            prims.add(p.specName());
        }
        out.println("primitives:  " + String.join(", ", prims));
        out.println("parameters (" + s.parameters().declared().size() + "):");
        for (Parameter p : s.parameters().declared()) {
            out.println("  " + p.name() + " = " + s.parameters().value(p.name()) + " (" + p.type().label()
                    + (p.type() == io.statecast.messagestore.spec.ParameterType.DURATION ? ", ms" : "") + ")"
                    + (p.description().isEmpty() ? "" : ": " + p.description()));
        }
        for (Problem w : s.warnings()) {
            out.println(w.format(s.source()));
        }
    }

    private static String describe(AttributeTest t) {
        if (t instanceof AttributeTest.MessageTypeIs m) {
            return Integer.toString(m.type() & 0xff);
        }
        if (t instanceof AttributeTest.AddressIs a) {
            return a.address() == null ? AttributeValues.LOCAL : AttributeValues.text(a.address());
        }
        if (t instanceof AttributeTest.DeliveryModeIs d) {
            return AttributeValues.name(d.mode());
        }
        if (t instanceof AttributeTest.MessageIdIs m) {
            return Long.toString(m.id());
        }
        if (t instanceof AttributeTest.ServiceIdIs m) {
            return Integer.toString(m.id());
        }
        if (t instanceof AttributeTest.HopLimitIs h) {
            return Integer.toString(h.hopLimit());
        }
        if (t instanceof AttributeTest.KindIs k) {
            return k.data() ? "data" : "control";
        }
        return t.toString();
    }
}
