package io.statecast.messagestore.tools.scenario;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.event.EvaluationGuard;
import io.statecast.messagestore.event.QueryEvaluator;
import io.statecast.messagestore.instance.ActionQueue;
import io.statecast.messagestore.instance.ArmedTimer;
import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.InstanceEnvironment;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.TimerService;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The node a scenario's instance runs on: overlay primitives that record instead of sending, a
 * virtual clock, and the instance environment a shard would give. Single-threaded: timers fire
 * on the thread that advances the clock.
 */
final class ScenarioNode implements OverlayContext, InstanceEnvironment {

    final VirtualTimerService clock = new VirtualTimerService(0);
    final List<Effect> effects = new ArrayList<>();
    /** Due time (virtual nanoseconds) of each pending timer, by timer id. */
    final Map<Integer, Long> due = new HashMap<>();
    private final LogicalAddress self;
    private final InstanceLimits limits;
    private final QueryEvaluator evaluator = new QueryEvaluator(EvaluationGuard.NONE);
    private final Counters counters = new Counters();
    private final ActionQueue actionQueue = new ActionQueue();
    private Topology topology;
    private java.util.Map<LogicalAddress, Double> rtt;
    private long nextMessageId = 1_000_000;
    EndCause endedBy;
    String quarantined;

    ScenarioNode(NodeSetup node, InstanceLimits limits) {
        this.self = node.address();
        this.limits = limits;
        this.topology = new ScenarioTopology(node, 1);
        this.rtt = node.rtt();
    }

    void topology(NodeSetup node) {
        topology = new ScenarioTopology(node, topology.version() + 1);
        rtt = node.rtt();
    }

    /** The scenario's measured round trips: SRTT as given, RTTVAR 0, for current neighbours only. */
    @Override
    public java.util.Optional<io.statecast.overlay.node.RttEstimate> neighbourRtt(LogicalAddress neighbour) {
        Double ms = rtt.get(neighbour);
        if (ms == null || !topology.neighbours().contains(neighbour)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new io.statecast.overlay.node.RttEstimate(ms * 1000, 0, 1));
    }

    // ------------------------------------------------------------------ OverlayContext

    @Override
    public LogicalAddress localAddress() {
        return self;
    }

    @Override
    public Topology topology() {
        return topology;
    }

    @Override
    public TimerService timers() {
        return clock;
    }

    @Override
    public long newMessageId() {
        return nextMessageId++;
    }

    @Override
    public int sendDataMessage(int serviceId, long messageId, byte[] payload, Route route) {
        effects.add(new Effect.SendData(messageId, payload, route, MessageFields.EMPTY, actionsRecorded()));
        return 1;
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
        effects.add(new Effect.SendControl(messageType, messageId, route, MessageFields.EMPTY, actionsRecorded()));
        return 1;
    }

    @Override
    public int sendDataMessage(int serviceId, long messageId, MessageFields fields, byte[] payload, Route route) {
        effects.add(new Effect.SendData(messageId, payload, route, fields, actionsRecorded()));
        return 1;
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, MessageFields fields, byte[] body,
            Route route) {
        effects.add(new Effect.SendControl(messageType, messageId, route, fields, actionsRecorded()));
        return 1;
    }

    // a scenario drives one message's instance: what its sends are about is that message
    @Override
    public int sendDataMessage(int serviceId, long messageId, LogicalAddress origin, MessageFields fields,
            byte[] payload, Route route) {
        return sendDataMessage(serviceId, messageId, fields, payload, route);
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, LogicalAddress origin,
            MessageFields fields, byte[] body, Route route) {
        return sendControlMessage(serviceId, messageType, messageId, fields, body, route);
    }

    @Override
    public int forwardMessage(OverlayMessage message) {
        effects.add(new Effect.Forward(message, actionsRecorded()));
        return 1;
    }

    @Override
    public boolean toApplication(OverlayMessage message) {
        effects.add(new Effect.ToApplication(message, actionsRecorded()));
        return true;
    }

    /**
     * How many action records the instance has made: the instance records an action (and counts
     * it here) after executing it, so during an action this is that action's index. A scenario
     * runs one instance on this node, so the node's count is the instance's.
     */
    private long actionsRecorded() {
        CountersSnapshot s = counters.snapshot();
        long n = 0;
        for (ActionOutcome o : ActionOutcome.values()) {
            n += s.actions(o);
        }
        return n;
    }

    // ------------------------------------------------------------------ InstanceEnvironment

    @Override
    public OverlayContext overlay() {
        return this;
    }

    @Override
    public QueryEvaluator evaluator() {
        return evaluator;
    }

    @Override
    public InstanceLimits limits() {
        return limits;
    }

    @Override
    public Counters nodeCounters() {
        return counters;
    }

    @Override
    public ActionQueue actionQueue() {
        return actionQueue;
    }

    @Override
    public ArmedTimer schedule(ServiceInstance instance, int timerId, long generation, long delayMillis) {
        effects.add(new Effect.Schedule(timerId, delayMillis));
        long dueAt = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis);
        due.put(timerId, dueAt);
        TimerService.Timer t = clock.schedule(delayMillis, TimeUnit.MILLISECONDS, () -> {
            if (due.get(timerId) != null && due.get(timerId) == dueAt) {
                due.remove(timerId);
            }
            instance.onTimer(timerId, generation);
        });
        return ArmedTimer.of(timerId, generation, () -> {
            boolean cancelled = t.cancel();
            if (cancelled) {
                effects.add(new Effect.Cancel(timerId));
                due.remove(timerId);
            }
            return cancelled;
        });
    }

    @Override
    public void ended(ServiceInstance instance, EndCause cause) {
        endedBy = cause;
    }

    @Override
    public void quarantine(ServiceRuntime service, String reason) {
        quarantined = reason;
        service.quarantine(reason);
    }
}
