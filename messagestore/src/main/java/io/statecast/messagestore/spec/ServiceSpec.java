package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.BasicEventDefinition;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.commons.scxml.SCXMLExecutor;
import org.apache.commons.scxml.Status;
import org.apache.commons.scxml.model.SCXML;
import org.apache.commons.scxml.model.State;
import org.apache.commons.scxml.model.TransitionTarget;

/**
 * The blueprint's <em>ExecSpec</em>: one loaded, checked and compiled executable specification,
 * shared by every instance of its service. Immutable and safe to use from any thread.
 *
 * <p>Holds the Commons SCXML model (every transition's paths pre-filled, datamodel stripped,
 * custom actions bound to compiled {@link ActionTemplate}s), the service metadata and metaops,
 * the parameters with their effective values, the basic-event filters as Java predicates, the
 * composite events with their XQuery compiled once, and per basic event whether any expression
 * may read its XML form. Create instances with {@link SpecLoader}.
 *
 * <p>Threading: the model is never modified after loading; an executor from
 * {@link #newExecutor} is confined to the thread that drives it (Commons SCXML's setters are not
 * synchronized). The spec's fields are final, so publishing the spec publishes the model safely.
 */
public final class ServiceSpec {

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
    private final SCXML model;
    private final List<Problem> warnings;
    private final EngineErrorReporter errorReporter;
    private final LeanSemantics semantics;
    /** The model's states covered by {@code <InFlight>} (a listed state and its descendants). */
    private final Set<TransitionTarget> inFlightTargets;

    ServiceSpec(String source, byte[] sha256, SpecValidator.Checked checked, SCXML model, List<Problem> warnings) {
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
        this.model = Objects.requireNonNull(model, "model");
        this.warnings = List.copyOf(warnings);
        this.errorReporter = new EngineErrorReporter(service.name());
        this.semantics = LeanSemantics.of(model);
        this.inFlightTargets = inFlightTargets(model, service.inFlight());
    }

    private static Set<TransitionTarget> inFlightTargets(SCXML model, List<String> ids) {
        Set<TransitionTarget> covered = Collections.newSetFromMap(new IdentityHashMap<>());
        if (ids.isEmpty()) {
            return covered;
        }
        for (Object o : model.getTargets().values()) {
            for (TransitionTarget t = (TransitionTarget) o; t != null; t = t.getParent()) {
                if (ids.contains(t.getId())) {
                    covered.add((TransitionTarget) o);
                    break;
                }
            }
        }
        return covered;
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
        this.model = base.model;
        this.warnings = base.warnings;
        this.errorReporter = base.errorReporter;
        this.semantics = base.semantics;
        this.inFlightTargets = base.inFlightTargets;
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
        return errorReporter.errors();
    }

    /**
     * The shared Commons SCXML model. Read-only by contract: modifying it corrupts every instance.
     */
    public SCXML model() {
        return model;
    }

    /**
     * A new engine for one instance, not yet started: call {@code go()} to enter the initial state
     * (its entry actions reach {@code sink}), then {@code triggerEvent} for each input symbol.
     * Runs without supersteps (specs have no eventless transitions, and event names cannot match
     * the engine's internal events) and without the invoke and history steps (specs have neither;
     * see {@link LeanSemantics}); steps from one atomic state come from a table worked out when
     * the spec was loaded. Confine it to one thread.
     */
    public SCXMLExecutor newExecutor(ActionSink sink) {
        return newExecutor(sink, semantics);
    }

    /** An executor with the given semantics (tests compare the step table with the general rules). */
    SCXMLExecutor newExecutor(ActionSink sink, LeanSemantics semantics) {
        SCXMLExecutor executor = new SCXMLExecutor(NoExpressionEvaluator.INSTANCE, RefusingEventDispatcher.INSTANCE,
                errorReporter, semantics);
        LeanInstanceState.trim(executor);
        executor.setRootContext(EngineContext.root(sink));
        executor.setSuperStep(false);
        executor.setStateMachine(model);
        return executor;
    }

    /**
     * Starts {@code executor}, an executor of this spec made by {@link #newExecutor(ActionSink)}
     * and not yet started, without running the engine, when the spec's step table has its initial
     * entry: the entry actions reach {@code sink} and the initial states become the configuration,
     * as {@code executor.go()} would do it (compared in the tests), without its reset of contexts
     * that specs never create and its per-start step and status objects.
     *
     * @return false when nothing was done and the caller must call {@code go()}
     */
    public boolean startDirectly(SCXMLExecutor executor, ActionSink sink) {
        StepTable table = semantics.table();
        List<Object> targets = table.initialTargets();
        List<ExecuteAction> program = table.initialProgram();
        Status status = executor.getCurrentStatus();
        if (targets == null || program == null || !status.getStates().isEmpty() || !status.getEvents().isEmpty()) {
            return false;
        }
        if (!run(program, sink)) {
            return false;
        }
        @SuppressWarnings("unchecked")
        Set<Object> states = status.getStates();
        states.addAll(targets);
        return true;
    }

    /**
     * A new machine for one instance, not yet started, whose entry and step actions reach
     * {@code sink}: it makes an engine only when a step needs one.
     */
    public MachineState newMachine(ActionSink sink) {
        return new MachineState(this, Objects.requireNonNull(sink, "sink"));
    }

    /** The step table of this spec's model. */
    StepTable table() {
        return semantics.table();
    }

    /** Queues {@code program}'s templates; false, queuing nothing, when one is not compiled. */
    static boolean run(List<ExecuteAction> program, ActionSink sink) {
        for (int i = 0, n = program.size(); i < n; i++) {
            if (program.get(i).template() == null) {
                return false; // not compiled: the engine reports it
            }
        }
        for (int i = 0, n = program.size(); i < n; i++) {
            sink.enqueue(program.get(i).template());
        }
        return true;
    }

    /**
     * Takes the step of {@code event} on {@code executor}, an executor of this spec made by
     * {@link #newExecutor(ActionSink)}, without running the engine, when the spec's step table
     * decides it: the configuration is one atomic state with no pending event, and every action
     * of the step is a primitive action. The actions reach {@code sink} and the configuration
     * changes exactly as {@code executor.triggerEvents} would have done it (the comparison is in
     * the tests), without the engine's per-event step, status and event-data objects. An event
     * that selects no transition changes nothing.
     *
     * @param executor the instance's executor, started
     * @param event    the event's name
     * @param sink     the sink the executor was made with
     * @return false when nothing was done and the caller must call {@code triggerEvents}
     */
    public boolean stepDirectly(SCXMLExecutor executor, String event, ActionSink sink) {
        Status status = executor.getCurrentStatus();
        @SuppressWarnings("unchecked")
        Set<Object> states = status.getStates();
        if (states.size() != 1 || !status.getEvents().isEmpty()) {
            return false;
        }
        StepPlan p = takeStep(states.iterator().next(), event, sink);
        if (p == null) {
            return false;
        }
        if (p.transition() != null) {
            states.clear();
            states.addAll(p.configuration());
        }
        return true;
    }

    /**
     * The step table's plan for {@code event} from the atomic state {@code state}, its actions
     * queued to {@code sink}; {@code null}, queuing nothing, when the table does not decide the
     * step or an action is not compiled. A plan without a transition changes nothing.
     */
    StepPlan takeStep(Object state, String event, ActionSink sink) {
        StepPlan p = semantics.table().plan(state, event);
        if (p == null || p.program() == null) {
            return null;
        }
        if (p.transition() != null && !run(p.program(), sink)) {
            return null;
        }
        return p;
    }

    @Override
    public String toString() {
        return "ServiceSpec[" + service.name() + ", ServiceID " + service.serviceId() + ", " + source + "]";
    }

    /** Whether the spec declares in-flight states ({@code <InFlight>} in its service section). */
    public boolean declaresInFlight() {
        return !inFlightTargets.isEmpty();
    }

    /**
     * Whether {@code executor} (an executor of this spec) is in one of the declared in-flight
     * states: a message of this instance is still awaiting acknowledgement. One identity lookup per
     * current atomic state; false when the spec declares none.
     */
    public boolean inFlight(SCXMLExecutor executor) {
        if (inFlightTargets.isEmpty()) {
            return false;
        }
        for (Object o : executor.getCurrentStatus().getStates()) {
            if (inFlightTargets.contains(o)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the atomic state {@code state} is one of the declared in-flight states. */
    boolean inFlightState(Object state) {
        return inFlightTargets.contains(state);
    }

    /**
     * Whether every current state of {@code executor} is a top-level final state: the instance has
     * finished. Not {@code Status.isFinal()}: with supersteps off, the engine's internal done-events
     * stay pending and that says false.
     *
     * @param executor an executor of a spec
     * @return whether it has reached a top-level final state
     */
    public static boolean inFinalState(SCXMLExecutor executor) {
        Set<?> states = executor.getCurrentStatus().getStates();
        if (states.isEmpty()) {
            return false;
        }
        for (Object o : states) {
            if (!topLevelFinal(o)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code state} is a final state at the top level of its machine. */
    static boolean topLevelFinal(Object state) {
        return state instanceof State st && st.isFinal() && st.getParentState() == null;
    }
}
