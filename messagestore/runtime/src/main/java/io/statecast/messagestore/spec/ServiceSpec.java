package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.BasicEventDefinition;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import io.statecast.messagestore.chart.Chart;
import io.statecast.messagestore.chart.ChartEvent;
import io.statecast.messagestore.chart.Session;
import io.statecast.messagestore.chart.StateNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blueprint's <em>ExecSpec</em>: one loaded, checked and compiled executable specification,
 * shared by every instance of its service. Immutable and safe to use from any thread.
 *
 * <p>Holds the compiled statechart ({@link Chart}: states, transitions, executable content with
 * every {@code action:execute} bound to its compiled {@link ActionTemplate}), the service
 * metadata and metaops,
 * the parameters with their effective values, the basic-event filters as Java predicates, the
 * composite events with their XQuery compiled once, and per basic event whether any expression
 * may read its XML form. Create instances with {@link SpecLoader}.
 *
 * <p>Threading: the chart is never modified after loading; a machine from {@link #newMachine} is
 * confined to the thread that drives it. The spec's fields are final, so publishing the spec
 * publishes the chart safely.
 */
public final class ServiceSpec {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceSpec.class);

    private final String source;
    private final byte[] sha256;
    private final ServiceMetadata service;
    private final MetaOps metaops;
    private final Parameters parameters;
    private final List<MessageEventDefinition> messageEvents;
    private final List<TimerEventDefinition> timerEvents;
    /** Element i of these is a list of the i-th message (timer) event alone: the usual match, shared. */
    private final List<List<MessageEventDefinition>> singleMessageEvents;
    private final List<List<TimerEventDefinition>> singleTimerEvents;
    private final List<CompositeEventDefinition> compositeEvents;
    private final Map<String, BasicEventDefinition> basicByName;
    private final Map<String, List<CompositeEventDefinition>> compositesByConstituent;
    private final List<ActionTemplate> actions;
    private final Set<Primitive> primitivesUsed;
    private final SpecStructure structure;
    private final Chart chart;
    private final List<Problem> warnings;
    private final AtomicLong engineErrors;
    /** By state index: covered by {@code <InFlight>} (a listed state or a descendant of one). */
    private final boolean[] inFlightStates;
    private final boolean declaresInFlight;
    /** The index in {@link #dataIds} of the {@code <InFlightCount>} variable, or -1. */
    private final int inFlightCountIndex;
    /** The {@code <InFlightCount>} limit with this spec's parameter values; {@code Integer.MAX_VALUE} without one. */
    private final int inFlightLimit;
    /** The event each basic or composite event name fires in the machine, made once. */
    private final Map<String, ChartEvent> chartEvents;
    /** The datamodel's variables, in the order that indexes them for compiled expressions. */
    private final List<String> dataIds;

    ServiceSpec(String source, byte[] sha256, SpecValidator.Checked checked, Chart chart, List<Problem> warnings) {
        this.source = Objects.requireNonNull(source, "source");
        this.sha256 = sha256.clone();
        this.service = checked.service();
        this.metaops = checked.metaops();
        this.parameters = Parameters.of(checked.parameters());
        this.messageEvents = List.copyOf(checked.messageEvents());
        this.timerEvents = List.copyOf(checked.timerEvents());
        this.singleMessageEvents = messageEvents.stream().map(List::of).toList();
        this.singleTimerEvents = timerEvents.stream().map(List::of).toList();
        this.compositeEvents = List.copyOf(checked.compositeEvents());
        Map<String, BasicEventDefinition> basics = new LinkedHashMap<>();
        for (MessageEventDefinition m : messageEvents) {
            basics.put(m.name(), m);
        }
        for (TimerEventDefinition t : timerEvents) {
            basics.put(t.name(), t);
        }
        this.basicByName = Collections.unmodifiableMap(basics);
        Map<String, List<CompositeEventDefinition>> byConstituent = new LinkedHashMap<>();
        for (CompositeEventDefinition c : compositeEvents) {
            for (String b : c.constituents()) {
                byConstituent.computeIfAbsent(b, k -> new ArrayList<>()).add(c);
            }
        }
        byConstituent.replaceAll((k, v) -> List.copyOf(v));
        this.compositesByConstituent = Collections.unmodifiableMap(byConstituent);
        List<ActionTemplate> all = new ArrayList<>();
        Set<Primitive> used = EnumSet.noneOf(Primitive.class);
        for (List<ActionTemplate> ts : checked.actions().values()) {
            all.addAll(ts);
            for (ActionTemplate t : ts) {
                used.add(t.primitive());
            }
        }
        all.sort((a, b) -> Integer.compare(a.line(), b.line()));
        this.actions = List.copyOf(all);
        this.primitivesUsed = Collections.unmodifiableSet(used);
        this.structure = checked.structure();
        this.chart = Objects.requireNonNull(chart, "chart");
        this.warnings = List.copyOf(warnings);
        this.engineErrors = new AtomicLong();
        this.inFlightStates = new boolean[chart.size()];
        boolean any = false;
        for (String id : service.inFlight()) {
            StateNode listed = chart.state(id);
            for (int i = 0; listed != null && i < chart.size(); i++) {
                StateNode s = chart.state(i);
                if (s == listed || s.isDescendantOf(listed)) {
                    inFlightStates[i] = true;
                    any = true;
                }
            }
        }
        this.dataIds = List.copyOf(checked.dataIds());
        InFlightCount count = service.inFlightCount();
        this.inFlightCountIndex = count == null ? -1 : dataIds.indexOf(count.variable());
        this.declaresInFlight = any || inFlightCountIndex >= 0;
        this.inFlightLimit = inFlightLimit(count, parameters);
        Map<String, ChartEvent> events = new java.util.HashMap<>();
        for (String name : basicByName.keySet()) {
            events.put(name, ChartEvent.external(name));
        }
        for (CompositeEventDefinition c : compositeEvents) {
            events.put(c.name(), ChartEvent.external(c.name()));
        }
        if (service.startsOnDeploy()) {
            events.put(service.start(), ChartEvent.external(service.start()));
        }
        this.chartEvents = Map.copyOf(events);
    }

    private ServiceSpec(ServiceSpec base, Parameters parameters) {
        this.source = base.source;
        this.sha256 = base.sha256;
        this.service = base.service;
        this.metaops = base.metaops;
        this.parameters = parameters;
        this.messageEvents = base.messageEvents;
        this.timerEvents = base.timerEvents;
        this.singleMessageEvents = base.singleMessageEvents;
        this.singleTimerEvents = base.singleTimerEvents;
        this.compositeEvents = base.compositeEvents;
        this.basicByName = base.basicByName;
        this.compositesByConstituent = base.compositesByConstituent;
        this.actions = base.actions;
        this.primitivesUsed = base.primitivesUsed;
        this.structure = base.structure;
        this.chart = base.chart;
        this.warnings = base.warnings;
        this.engineErrors = base.engineErrors;
        this.inFlightStates = base.inFlightStates;
        this.declaresInFlight = base.declaresInFlight;
        this.inFlightCountIndex = base.inFlightCountIndex;
        this.inFlightLimit = inFlightLimit(service.inFlightCount(), parameters);
        this.chartEvents = base.chartEvents;
        this.dataIds = base.dataIds;
    }

    /**
     * The datamodel's variables ({@code <data id>}, root and state-level) in declaration order:
     * composite queries and action XPaths were compiled against this list and find a variable by
     * its index in it ({@code DatamodelValues}). Empty when the spec has no datamodel.
     */
    public List<String> dataIds() {
        return dataIds;
    }

    /** Where the spec came from (file name or URI), for messages. */
    public String source() {
        return source;
    }

    /** SHA-256 of the spec's bytes (a copy). */
    public byte[] sha256() {
        return sha256.clone();
    }

    /** SHA-256 of the spec's bytes, lower-case hex. */
    public String sha256Hex() {
        return HexFormat.of().formatHex(sha256);
    }

    /** The service section: name, ServiceID, delivery modes, scope. */
    public ServiceMetadata service() {
        return service;
    }

    /** The metaops section (defaults when absent). */
    public MetaOps metaops() {
        return metaops;
    }

    /** Declared parameters and their effective values. */
    public Parameters parameters() {
        return parameters;
    }

    /**
     * This spec with some parameter values overridden (a deployment's settings). Everything else,
     * including the model and compiled expressions, is shared.
     *
     * @throws SpecException when a name is not declared or a value does not fit its type
     */
    public ServiceSpec withParameters(Map<String, String> overrides) throws SpecException {
        List<Problem> problems = new ArrayList<>();
        Parameters p = parameters.withOverrides(overrides, problems);
        if (!problems.isEmpty()) {
            throw new SpecException(source, problems);
        }
        return new ServiceSpec(this, p);
    }

    /** Message basic events in spec order (the order filters are applied). */
    public List<MessageEventDefinition> messageEvents() {
        return messageEvents;
    }

    /** Timer basic events in spec order. */
    public List<TimerEventDefinition> timerEvents() {
        return timerEvents;
    }

    /** Composite events in spec order. */
    public List<CompositeEventDefinition> compositeEvents() {
        return compositeEvents;
    }

    /** The basic event with this name, or {@code null}. */
    public BasicEventDefinition basicEvent(String name) {
        return basicByName.get(name);
    }

    /**
     * The message events an arriving message fires, in spec order. Every matching filter fires
     * (one-to-many mapping, blueprint Table 4.3); none means the message is not an input.
     *
     * @param self this node's logical address (for filters written {@code local})
     */
    public List<MessageEventDefinition> matchMessage(OverlayMessage message, LogicalAddress self) {
        List<MessageEventDefinition> out = null;
        int first = -1;
        for (int i = 0, n = messageEvents.size(); i < n; i++) {
            MessageEventDefinition d = messageEvents.get(i);
            if (d.filter().matches(message, self)) {
                if (first < 0) {
                    first = i;
                } else {
                    if (out == null) {
                        out = new ArrayList<>(2);
                        out.add(messageEvents.get(first));
                    }
                    out.add(d);
                }
            }
        }
        // one match is the usual case: answered without allocating
        return out != null ? out : first < 0 ? List.of() : singleMessageEvents.get(first);
    }

    /**
     * Whether {@code message}, which fires the basic events {@code matched} and finds no instance,
     * creates one. With {@code <CreatedBy>}: when one of {@code matched} is listed. Without it,
     * under a message scope: when it is a data message (MessageType 0x80) — a control message
     * (an ACK, a NACK, a request) is about a message, and one about a message this node never saw
     * creates nothing, so a forged one cannot end an instance or leave the tombstone that would
     * refuse the real payload; under the other scopes: always (a flow's messages create its
     * instance, and flow instances leave no tombstone).
     */
    public boolean createsInstance(OverlayMessage message, List<MessageEventDefinition> matched) {
        List<String> listed = service.createdBy();
        if (listed.isEmpty()) {
            return !service.scope().perMessage() || message.fsm().messageType() == FsmExtension.PAYLOAD_TYPE;
        }
        for (int i = 0, n = matched.size(); i < n; i++) {
            if (listed.contains(matched.get(i).name())) {
                return true;
            }
        }
        return false;
    }

    /** The timer events an expiry of the instance's timer {@code timerId} fires, in spec order. */
    public List<TimerEventDefinition> matchTimer(int timerId) {
        List<TimerEventDefinition> out = null;
        int first = -1;
        for (int i = 0, n = timerEvents.size(); i < n; i++) {
            TimerEventDefinition d = timerEvents.get(i);
            if (d.filter().matches(timerId)) {
                if (first < 0) {
                    first = i;
                } else {
                    if (out == null) {
                        out = new ArrayList<>(2);
                        out.add(timerEvents.get(first));
                    }
                    out.add(d);
                }
            }
        }
        return out != null ? out : first < 0 ? List.of() : singleTimerEvents.get(first);
    }

    /** The composite events to evaluate after basic event {@code name} fired, in spec order. */
    public List<CompositeEventDefinition> compositesTriggeredBy(String name) {
        return compositesByConstituent.getOrDefault(name, List.of());
    }

    /** Whether any XPath or XQuery of the spec may read the XML form of basic event {@code name}. */
    public boolean historyXmlNeeded(String name) {
        BasicEventDefinition d = basicByName.get(name);
        return d != null && d.historyXmlNeeded();
    }

    /** Every compiled action, ordered by line. */
    public List<ActionTemplate> actions() {
        return actions;
    }

    /** The primitives the spec executes. */
    public Set<Primitive> primitivesUsed() {
        return primitivesUsed;
    }

    /** States and transitions as written. */
    public SpecStructure structure() {
        return structure;
    }

    /** Problems that did not refuse the spec. */
    public List<Problem> warnings() {
        return warnings;
    }

    /** How many errors the engine reported while running instances of this spec. */
    public long engineErrors() {
        return engineErrors.get();
    }

    /** Counts and logs (the first few, then at powers of two) an error an instance's machine hit. */
    void engineError(String detail) {
        long n = engineErrors.incrementAndGet();
        if (n <= 10 || Long.bitCount(n) == 1) {
            LOG.warn("service {}: engine error ({} so far): {}", service.name(), n, detail);
        }
    }

    /** The compiled statechart, shared by every instance. */
    public Chart chart() {
        return chart;
    }

    /** The event the machine receives for basic or composite event {@code name}, or {@code null}. */
    public ChartEvent chartEvent(String name) {
        return chartEvents.get(name);
    }

    /**
     * A new machine for one instance, not yet started, whose {@code action:execute}s reach
     * {@code sink}.
     */
    public MachineState newMachine(ActionSink sink) {
        return newMachine(sink, MachineContext.NONE);
    }

    /** A new machine whose delayed {@code <send>}s run on {@code timers}. */
    public MachineState newMachine(ActionSink sink, MachineContext timers) {
        return new MachineState(this, Objects.requireNonNull(sink, "sink"), Objects.requireNonNull(timers, "timers"));
    }

    @Override
    public String toString() {
        return "ServiceSpec[" + service.name() + ", ServiceID " + service.serviceId() + ", " + source + "]";
    }

    /**
     * Whether the store counts this service's own messages in flight: the spec declares in-flight
     * states ({@code <InFlight>}) or an in-flight count ({@code <InFlightCount>}).
     */
    public boolean declaresInFlight() {
        return declaresInFlight;
    }

    /**
     * The index in {@link #dataIds()} of the variable that counts an instance's own messages in
     * flight ({@code <InFlightCount>}), or -1 when the spec counts by state or not at all.
     */
    public int inFlightCountIndex() {
        return inFlightCountIndex;
    }

    /**
     * The most own messages of this service in flight that the spec allows
     * ({@code <InFlightCount limit>}, with this spec's parameter values, at least 1);
     * {@code Integer.MAX_VALUE} when it sets none (the socket's window alone applies).
     */
    public int inFlightLimit() {
        return inFlightLimit;
    }

    private static int inFlightLimit(InFlightCount count, Parameters parameters) {
        if (count == null || count.limit() == null) {
            return Integer.MAX_VALUE;
        }
        long v = Character.isDigit(count.limit().charAt(0)) ? Long.parseLong(count.limit())
                : parameters.longValue(count.limit());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, v));
    }

    /**
     * Whether {@code session} (a machine of this spec) is in one of the declared in-flight states:
     * a message of this instance is still awaiting acknowledgement. False when none is declared.
     */
    boolean inFlight(Session session) {
        return declaresInFlight && session.anyActive(inFlightStates);
    }
}
