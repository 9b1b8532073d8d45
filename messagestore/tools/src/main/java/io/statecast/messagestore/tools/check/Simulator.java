package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.action.ActionContext;
import io.statecast.messagestore.action.ActionException;
import io.statecast.messagestore.action.PrimitiveExecutor;
import io.statecast.messagestore.action.ResolvedFields;
import io.statecast.messagestore.event.CompiledPath;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.EvaluationException;
import io.statecast.messagestore.event.EvaluationGuard;
import io.statecast.messagestore.event.History;
import io.statecast.messagestore.event.HistoryEntry;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.NodeSnapshot;
import io.statecast.messagestore.event.PathResult;
import io.statecast.messagestore.event.QueryEvaluator;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.ActionSink;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.MachineState;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.tools.SpecGraph;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs one instance of a spec the way {@code ServiceInstance} does (the same engine, history,
 * action execution and composite-event evaluation, in the same order), but on a virtual overlay,
 * and resumable from any {@link Snapshot}: the machine is restored into the snapshot's atomic
 * states (specs the checker explores have no datamodel and no history states, so those states are
 * the machine's whole state), the history by re-appending the entries, the timers from the
 * snapshot.
 *
 * <p>Why snapshots rather than replaying each run from the start: measured on the blueprint's
 * hop-to-hop spec and a full hop-to-hop service at depth 8 (warm JVM, loaded 2-core machine),
 * restoring and stepping cost 9–21 µs per explored transition, replaying the run to the state
 * and then stepping 78–88 µs.
 *
 * <p>Not modelled: the primitive rate limit, {@code timersPerInstance} and the idle timeout (the
 * runtime's safety nets, not the spec's behaviour); a check must find what they would hide.
 * Confined to one thread.
 */
final class Simulator implements ActionSink, ActionContext {

    private final ServiceSpec spec;
    private final ServiceRuntime runtime;
    private final SpecGraph graph;
    private final VirtualOverlay overlay;
    private final QueryEvaluator evaluator = new QueryEvaluator(EvaluationGuard.NONE);
    /** The machine of the run being stepped: a new one per start or restored snapshot. */
    private MachineState machine;
    private final ArrayDeque<ActionTemplate> pending = new ArrayDeque<>();
    private final Map<ActionTemplate, ResolvedFields> resolvedFields = new IdentityHashMap<>();

    private History history;
    private TreeMap<Integer, Snapshot.PendingTimer> timers;
    private List<Outcome.Call> calls;
    private List<Outcome.Fired> fired;
    private List<Outcome.Failure> failures;
    private ActionTemplate current;
    private boolean terminated;
    /** The timer the running action set or cancelled, else -1. */
    private int lastTimerTouched = -1;
    private long clock;
    private long steps;

    Simulator(ServiceSpec spec, SpecGraph graph, AbstractNode node) {
        this.spec = spec;
        this.runtime = new ServiceRuntime(spec);
        this.graph = graph;
        this.overlay = new VirtualOverlay(node);
        for (ActionTemplate a : spec.actions()) {
            resolvedFields.put(a, ResolvedFields.of(a, spec.parameters()));
        }
    }

    /** How many steps (starts included) ran. */
    long steps() {
        return steps;
    }

    /** A new instance: enters the initial state and runs its entry actions. */
    Outcome start() {
        begin(new Snapshot(List.of(), new TreeMap<>(), List.of(), false, 0), false);
        try {
            machine.start();
        } catch (RuntimeException e) {
            failures.add(new Outcome.Failure(0, "the engine failed to start: " + e));
        }
        runActions();
        return finish();
    }

    /** The start input of a spec with {@code <Start>}, else {@code null}. */
    Input.Deploy deployInput() {
        String start = spec.service().start();
        return start == null ? null : new Input.Deploy(start);
    }

    /** The input {@code in} arrives at the instance {@code from} (not ended). */
    Outcome step(Snapshot from, Input in) {
        Outcome quick = ignored(from, in);
        if (quick != null) {
            return quick;
        }
        begin(from, true);
        if (in instanceof Input.Arrival a) {
            clock = from.clock() + 1;
            overlay.setTime(clock);
            for (MessageEventDefinition d : a.fires()) {
                history.addMessageEvent(d.name(), a.message(), clock, d.historyXmlNeeded());
            }
            for (MessageEventDefinition d : a.fires()) {
                if (!fire(d.name())) {
                    return finish();
                }
            }
            evaluateComposites(compositesAfter(a.fires()));
        } else if (in instanceof Input.Deploy d) {
            clock = from.clock() + 1;
            overlay.setTime(clock);
            if (!fire(d.event())) { // the start event is not recorded in the history
                return finish();
            }
        } else if (in instanceof Input.Expiry e) {
            Snapshot.PendingTimer t = timers.remove(e.timerId());
            clock = from.clock() + Math.max(1, t == null ? 1 : t.delay());
            overlay.setTime(clock);
            List<TimerEventDefinition> matched = spec.matchTimer(e.timerId());
            for (TimerEventDefinition d : matched) {
                history.addTimerEvent(d.name(), e.timerId(), clock, d.historyXmlNeeded());
            }
            List<CompositeEventDefinition> composites = new ArrayList<>();
            for (TimerEventDefinition d : matched) {
                if (!fire(d.name())) {
                    return finish();
                }
                for (CompositeEventDefinition c : spec.compositesTriggeredBy(d.name())) {
                    if (!composites.contains(c)) {
                        composites.add(c);
                    }
                }
            }
            evaluateComposites(composites);
        }
        return finish();
    }

    // ------------------------------------------------------------------------------------------

    /**
     * The outcome of an input no transition of the configuration reacts to, neither through the
     * basic events it fires nor through the composites evaluated after them, computed without the
     * engine: such a step only records its events (most inputs, in most states, are like this).
     * {@code null} when the input needs a real step.
     */
    private Outcome ignored(Snapshot from, Input in) {
        List<String> names = new ArrayList<>(2);
        List<CompositeEventDefinition> composites;
        if (in instanceof Input.Arrival a) {
            for (MessageEventDefinition d : a.fires()) {
                names.add(d.name());
            }
            composites = compositesAfter(a.fires());
        } else if (in instanceof Input.Deploy d) {
            names.add(d.event());
            composites = List.of();
        } else {
            composites = new ArrayList<>();
            for (TimerEventDefinition d : spec.matchTimer(((Input.Expiry) in).timerId())) {
                names.add(d.name());
                composites.addAll(spec.compositesTriggeredBy(d.name()));
            }
        }
        for (String n : names) {
            if (handledIn(from.configuration(), n)) {
                return null;
            }
        }
        for (CompositeEventDefinition c : composites) {
            if (handledIn(from.configuration(), c.name())) {
                return null;
            }
        }
        steps++;
        List<HistoryEntry> entries = new ArrayList<>(from.entries());
        TreeMap<Integer, Snapshot.PendingTimer> t = new TreeMap<>(from.timers());
        long now;
        if (in instanceof Input.Arrival a) {
            now = from.clock() + 1;
            for (String n : names) {
                entries.add(new HistoryEntry.MessageEvent(n, a.message(), now));
            }
        } else if (in instanceof Input.Deploy) {
            now = from.clock() + 1;
        } else {
            int id = ((Input.Expiry) in).timerId();
            Snapshot.PendingTimer p = t.remove(id);
            now = from.clock() + Math.max(1, p == null ? 1 : p.delay());
            for (String n : names) {
                entries.add(new HistoryEntry.TimerEvent(n, id, now));
            }
        }
        while (entries.size() > InstanceLimits.DEFAULT_HISTORY_ENTRIES) {
            entries.remove(0);
        }
        List<Outcome.Fired> f = new ArrayList<>(names.size());
        for (String n : names) {
            f.add(new Outcome.Fired(n, false));
        }
        return new Outcome(new Snapshot(from.configuration(), t, entries, false, now), List.of(), f, List.of());
    }

    private boolean handledIn(List<String> configuration, String event) {
        for (String s : configuration) {
            if (graph.handles(s, event)) {
                return true;
            }
        }
        return false;
    }

    private void begin(Snapshot from, boolean restoreStates) {
        steps++;
        history = new History(InstanceLimits.DEFAULT_HISTORY_ENTRIES, runtime.historyNames());
        for (HistoryEntry e : from.entries()) {
            if (e instanceof HistoryEntry.MessageEvent m) {
                history.addMessageEvent(m.name(), m.message(), m.timeMillis(), spec.historyXmlNeeded(m.name()));
            } else if (e instanceof HistoryEntry.TimerEvent t) {
                history.addTimerEvent(t.name(), t.timerId(), t.timeMillis(), spec.historyXmlNeeded(t.name()));
            } else if (e instanceof HistoryEntry.NodeRecord n) {
                history.addNodeRecord(n.node(), n.timeMillis());
            }
        }
        timers = new TreeMap<>(from.timers());
        calls = new ArrayList<>(4);
        fired = new ArrayList<>(2);
        failures = new ArrayList<>(0);
        pending.clear();
        terminated = false;
        clock = from.clock();
        overlay.setTime(clock);
        machine = spec.newMachine(this);
        if (restoreStates) {
            machine.restore(from.configuration());
        }
    }

    private Outcome finish() {
        boolean ended = terminated || inFinalState();
        List<String> config = new ArrayList<>();
        if (!ended) {
            config.addAll(machine.states());
            config.sort(null);
        }
        Snapshot after = new Snapshot(config, ended ? new TreeMap<>() : timers, history.entries(), ended, clock);
        return new Outcome(after, calls, fired, failures);
    }

    /** The composites evaluated after message events {@code fired}, as the runtime orders them. */
    private List<CompositeEventDefinition> compositesAfter(List<MessageEventDefinition> fires) {
        if (fires.size() == 1) {
            return spec.compositesTriggeredBy(fires.get(0).name());
        }
        List<CompositeEventDefinition> out = new ArrayList<>(2);
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            for (MessageEventDefinition d : fires) {
                if (c.constituents().contains(d.name())) {
                    out.add(c);
                    break;
                }
            }
        }
        return out;
    }

    /** Fires one event and runs its actions; false if the instance ended. */
    private boolean fire(String event) {
        fired.add(new Outcome.Fired(event, handledNow(event)));
        try {
            machine.fire(spec.chartEvent(event));
        } catch (RuntimeException e) {
            failures.add(new Outcome.Failure(0, "the engine failed on " + event + ": " + e));
        }
        runActions();
        return !terminated;
    }

    private boolean handledNow(String event) {
        for (String state : machine.states()) {
            if (graph.handles(state, event)) {
                return true;
            }
        }
        return false;
    }

    private void evaluateComposites(List<CompositeEventDefinition> composites) {
        for (CompositeEventDefinition c : composites) {
            if (terminated) {
                return;
            }
            boolean fires;
            try {
                fires = evaluator.evaluateQuery(runtime, c.query(), runtime.bindings(), history);
            } catch (EvaluationException e) {
                failures.add(new Outcome.Failure(c.line(), "composite event " + c.name() + ": " + e.getMessage()));
                continue;
            }
            if (fires && !fire(c.name())) {
                return;
            }
        }
    }

    private boolean inFinalState() {
        return machine.inFinalState();
    }

    private void runActions() {
        ActionTemplate a;
        while ((a = pending.poll()) != null) {
            if (terminated) {
                continue;
            }
            current = a;
            lastTimerTouched = -1;
            try {
                ResolvedFields fields = resolvedFields.get(a);
                PrimitiveExecutor.execute(a, fields != null ? fields : ResolvedFields.of(a, spec.parameters()), this);
                calls.add(new Outcome.Call(a.primitive(), a.line(), lastTimerTouched, overlay.takeLastCall()));
            } catch (ActionException | EvaluationException | RuntimeException e) {
                overlay.takeLastCall();
                failures.add(new Outcome.Failure(a.line(), a.primitive().specName() + " failed: " + e.getMessage()));
            }
        }
        current = null;
    }


    // ------------------------------------------------------------------ ActionSink

    @Override
    public void enqueue(ActionTemplate action) {
        pending.add(action);
    }

    // ------------------------------------------------------------------ ActionContext

    @Override
    public ServiceSpec spec() {
        return spec;
    }

    @Override
    public OverlayContext overlay() {
        return overlay;
    }

    @Override
    public PathResult evaluate(CompiledPath path) throws EvaluationException {
        return evaluator.evaluatePath(runtime, path, runtime.bindings(), history);
    }

    // The checker explores one instance: its flow's numbers are a local counter.
    private long nextSequence;
    private long instanceSequence = -1;

    @Override
    public long nextFlowSequence() {
        return nextSequence++;
    }

    @Override
    public long instanceSequence() {
        if (instanceSequence < 0) {
            instanceSequence = nextFlowSequence();
        }
        return instanceSequence;
    }

    @Override
    public long defaultMessageId() {
        return !spec.service().scope().perMessage() ? overlay.newMessageId() : Alphabet.MESSAGE_ID;
    }

    @Override
    public OverlayMessage lastMessage() {
        return history.lastMessage();
    }

    @Override
    public void setTimer(int timerId, long delayMillis) {
        lastTimerTouched = timerId;
        timers.put(timerId, new Snapshot.PendingTimer(current == null ? 0 : current.line(), delayMillis));
    }

    @Override
    public boolean cancelTimer(int timerId) {
        lastTimerTouched = timerId;
        return timers.remove(timerId) != null;
    }

    @Override
    public void terminate() {
        terminated = true;
    }

    @Override
    public int forget(CompiledPath path) throws EvaluationException {
        // forgetEvents changes the history the state key is built from, so it runs for real here too.
        return history.forget(evaluator.selectNodes(runtime, path, runtime.bindings(), history));
    }

    @Override
    public void recordNode(NodeSnapshot node) {
        history.addNodeRecord(node, clock);
    }
}
