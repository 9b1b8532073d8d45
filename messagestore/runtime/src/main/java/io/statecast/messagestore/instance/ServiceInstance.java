package io.statecast.messagestore.instance;

import io.statecast.messagestore.action.ActionContext;
import io.statecast.messagestore.action.ActionException;
import io.statecast.messagestore.action.ActionLog;
import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.action.ActionRecord;
import io.statecast.messagestore.action.PrimitiveExecutor;
import io.statecast.messagestore.action.TokenBucket;
import io.statecast.messagestore.chart.ChartLimit;
import io.statecast.messagestore.event.CompiledExpression;
import io.statecast.messagestore.event.CompiledPath;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.DatamodelItem;
import io.statecast.messagestore.event.DatamodelValues;
import io.statecast.messagestore.event.EvaluationException;
import io.statecast.messagestore.event.History;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.NodeSnapshot;
import io.statecast.messagestore.event.PathResult;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.flow.InFlightCounter;
import io.statecast.messagestore.spec.ActionSink;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.MachineState;
import io.statecast.messagestore.spec.MachineContext;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.TimerService;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blueprint's <em>GenericFSM</em>: one running instance of a service, keyed by its
 * {@link InstanceKey}. It holds its machine ({@link MachineState}: a session of the spec's
 * compiled chart), the history
 * of basic events and of executed actions, its timers and its primitive budget. The actions an
 * engine step produces wait in its environment's {@link ActionQueue}, shared by the shard's
 * instances, until the step runs them.
 *
 * <h2>One step (the blueprint's handleEvent, Fig. 5.11)</h2>
 * <ol>
 *   <li>Every basic event the message or timer expiry matches (in spec order: one-to-one,
 *       one-to-many) is recorded in the history once, before any fires, so each transition's
 *       XPaths see the input that caused it.</li>
 *   <li>Each matched event fires in the engine; the actions it produces are queued during the
 *       engine step and executed right after it, in document order (the blueprint's
 *       dispatchAction; the engine never waits for an action).</li>
 *   <li>Then every composite event with one of those basic events among its constituents is
 *       evaluated once, in spec order, against the history as the actions left it (so an
 *       {@code updateNodeInfo} of the same step is visible); each that is true fires in turn.</li>
 *   <li>An instance that executed {@code terminate} ends after that action (later actions of the
 *       step are discarded and recorded as such); one in a final state ends after the step.</li>
 * </ol>
 *
 * <h2>The primitive budget</h2>
 * The step is the unit of the budget ({@link TokenBucket}): it is checked before a step, never
 * during one, so that no overload leaves a chart whose state moved on without the calls that went
 * with it. With the budget spent ({@link #admission}): a message from the network is refused
 * before the chart sees it (the caller drops it as {@code THROTTLED}; to the chart it is a lost
 * message); a timer expiry, a delayed {@code <send>} and a message of the node's own application
 * wait in the instance, in the order they came, and are stepped when the budget refills; while any
 * waits, later network messages are refused so they do not overtake it. A step that starts runs
 * every call, composite events and raised events included, even below zero: the debt (at most one
 * step's calls, which the chart limits bound) is repaid before the next event is stepped. The
 * instance's first event (the one it was created for, or {@code <Start>}) is never refused.
 *
 * <p>Confined to its shard's thread: no method is thread-safe.
 */
public final class ServiceInstance implements ActionSink, ActionContext, MachineContext {

    /** Timer ids of delayed {@code <send>}s count down from here; the spec's timers are positive. */
    private static final int FIRST_SEND_TIMER = -1;
    /** The timer id of the wake-up for events waiting for the budget; below every delayed send's. */
    private static final int WAKE_TIMER = Integer.MIN_VALUE;
    /** The last id a delayed send takes before its ids wrap around to {@link #FIRST_SEND_TIMER}. */
    private static final int LAST_SEND_TIMER = Integer.MIN_VALUE + 1;

    private static final Logger LOG = LoggerFactory.getLogger(ServiceInstance.class);

    private final InstanceKey key;
    private final ServiceRuntime service;
    private final InstanceEnvironment env;
    private final MachineState machine;
    private final History history;
    private final ActionLog actions;
    private final TokenBucket budget;
    private final ArmedTimers timers = new ArmedTimers();
    /** The tasks of delayed {@code <send>}s by their (negative) timer id; made on first use. */
    private java.util.Map<Integer, Runnable> sendTasks;
    private int nextSendTimer = FIRST_SEND_TIMER;
    private final long createdNanos;
    private long lastMessageNanos;
    /**
     * When the current step began (node clock, ns): the time of its history entries, action records
     * and primitive budget. One clock read per step instead of one per action.
     */
    private long stepNanos;
    private long timerGeneration;
    private boolean terminateRequested;
    private EndCause ended;
    /**
     * The store's in-flight count of this service once the instance holds a message its node's
     * application sent (and the spec declares in-flight states); null otherwise.
     */
    private InFlightCounter inFlightCount;
    /** Whether this instance is counted in {@link #inFlightCount} now. */
    private boolean inFlightCounted;
    /**
     * Under an {@code <InFlightCount>} spec: how many own messages this instance has counted in
     * {@link #inFlightCount} (its variable's value when last read, plus its waiting messages).
     */
    private int inFlightHeld;
    /**
     * Timer events of this instance while it was counted, up to 2: the second is the congestion
     * signal (sent once); a single timeout is what one random loss costs.
     */
    private int inFlightTimeouts;
    /** The source of the message that created the instance: its flow, for sequence numbers. */
    private LogicalAddress flowSource;
    /** The sequence number the instance took ({@code sequence="instance"}), or -1 before it takes one. */
    private long instanceSequence = -1;
    /** Whether the store started this instance on deployment ({@link #onDeploy()}). */
    private boolean startedOnDeploy;
    /** Whether an event was stepped yet: the first (the one that created the instance) is never refused. */
    private boolean stepped;
    /**
     * Events waiting for the primitive budget, oldest first ({@link WaitingTimer},
     * {@link WaitingMessage}); made on first use.
     */
    private ArrayDeque<Object> waiting;
    /** How many of {@link #waiting} are messages (bounded by {@code primitiveBurst}). */
    private int waitingMessages;
    /** The wake-up that steps {@link #waiting} when the budget refills, or null. */
    private ArmedTimer wake;
    private long wakeGeneration;

    /** A timer expiry waiting for the budget; stale once the timer was cancelled or set again. */
    private record WaitingTimer(int timerId, long generation) {
    }

    /** A message of the node's application waiting for the budget. */
    private record WaitingMessage(OverlayMessage message, List<MessageEventDefinition> matched) {
    }

    /**
     * Creates the instance (not started: call {@link #start()}).
     */
    public ServiceInstance(InstanceKey key, ServiceRuntime service, InstanceEnvironment env) {
        this.key = Objects.requireNonNull(key, "key");
        this.service = Objects.requireNonNull(service, "service");
        this.env = Objects.requireNonNull(env, "env");
        InstanceLimits limits = env.limits();
        this.history = new History(limits.historyEntries(), service.historyNames(), service.expectedHistoryEntries());
        long now = env.overlay().timers().nanoTime();
        this.createdNanos = now;
        this.lastMessageNanos = now;
        this.stepNanos = now;
        this.budget = new TokenBucket(limits.primitiveBurst(), limits.primitiveRatePerSecond(), now);
        this.actions = new ActionLog(limits.actionHistoryEntries(), service.expectedActionRecords());
        this.machine = service.spec().newMachine(this, this);
    }

    /** Enters the initial state and runs its entry actions. */
    public void start() {
        ActionQueue queue = env.actionQueue();
        int mark = queue.mark();
        try {
            machine.start();
        } catch (RuntimeException e) {
            engineError("starting", e);
        }
        if (stoppedByLimit(queue, mark)) {
            return;
        }
        runActions(queue, mark);
        afterStep();
    }

    /**
     * Fires the spec's {@code <Start>} event: the store created this instance as the node's own
     * when the service was deployed. Call once, after {@link #start()}. The event is not recorded
     * in the history (it carries nothing); from now on the idle sweep leaves the instance alone.
     */
    public void onDeploy() {
        String event = service.spec().service().start();
        if (ended != null || event == null) {
            return;
        }
        startedOnDeploy = true;
        stepped = true;
        if (flowSource == null) {
            flowSource = key.address();
        }
        stepNanos = env.overlay().timers().nanoTime();
        if (fire(event)) {
            afterStep();
        }
    }

    /** Whether the store started this instance when its service was deployed ({@link #onDeploy()}). */
    public boolean startedOnDeploy() {
        return startedOnDeploy;
    }

    /**
     * What {@link #onMessage(OverlayMessage, List, boolean)} would do with a message now
     * (see "The primitive budget" above); changes nothing. The store asks before it hands the
     * instance a message, so that a refused one is counted and adopts nothing.
     *
     * @param fromApplication whether the message comes from this node's application (it may wait
     *                        for the budget; one from the network may not)
     */
    public StepAdmission admission(boolean fromApplication) {
        if (ended != null) {
            return StepAdmission.STEP; // ignored
        }
        if (!mustWait(!stepped)) {
            return StepAdmission.STEP;
        }
        return fromApplication && waitingMessages < env.limits().primitiveBurst() ? StepAdmission.DEFER
                : StepAdmission.REFUSE;
    }

    /**
     * Handles a message from the network that matched {@code matched} (non-empty, from
     * {@code ServiceSpec.matchMessage}), if the budget allows ({@link #admission}).
     *
     * @return what became of it: {@link StepAdmission#REFUSE}d messages are the caller's to count
     */
    public StepAdmission onMessage(OverlayMessage message, List<MessageEventDefinition> matched) {
        return onMessage(message, matched, false);
    }

    /**
     * Handles a message that matched {@code matched} (non-empty, from
     * {@code ServiceSpec.matchMessage}): steps it now, keeps it until the budget refills, or
     * refuses it ({@link #admission}).
     *
     * @param fromApplication whether the message comes from this node's application
     * @return what became of it: {@link StepAdmission#REFUSE}d messages are the caller's to count
     */
    public StepAdmission onMessage(OverlayMessage message, List<MessageEventDefinition> matched,
            boolean fromApplication) {
        return onMessage(message, matched, admission(fromApplication));
    }

    /**
     * Handles a message as {@code admission} says: what {@link #admission} answered for it just
     * before, with nothing stepped in between (the store asks once per message, before adopting an
     * own message's count).
     *
     * @return {@code admission}
     */
    public StepAdmission onMessage(OverlayMessage message, List<MessageEventDefinition> matched,
            StepAdmission admission) {
        if (ended != null) {
            return StepAdmission.STEP;
        }
        switch (admission) {
            case STEP -> messageStep(message, matched);
            case DEFER -> {
                lastMessageNanos = env.overlay().timers().nanoTime();
                waitFor(new WaitingMessage(message, matched));
                waitingMessages++;
                if (service.spec().inFlightCountIndex() >= 0) {
                    updateInFlight(); // a waiting message of the application is in flight too
                }
            }
            case REFUSE -> {
                if (service.throttleLog.allow()) {
                    LOG.warn("{}: {} refused a message: its primitive budget is spent (more than {} calls/s, burst {});"
                            + " {} more since the last report", service, key, env.limits().primitiveRatePerSecond(),
                            env.limits().primitiveBurst(), service.throttleLog.takeSuppressed());
                }
            }
        }
        return admission;
    }

    private void messageStep(OverlayMessage message, List<MessageEventDefinition> matched) {
        if (flowSource == null) {
            flowSource = message.source();
        }
        stepped = true;
        long nowNanos = env.overlay().timers().nanoTime();
        lastMessageNanos = nowNanos;
        stepNanos = nowNanos;
        long now = nowMillis();
        long evictedBefore = history.evicted();
        for (int i = 0, n = matched.size(); i < n; i++) {
            MessageEventDefinition d = matched.get(i);
            history.addMessageEvent(d.name(), message, now, d.historyXmlNeeded());
        }
        countEvictions(evictedBefore);
        for (int i = 0, n = matched.size(); i < n; i++) {
            if (!fire(matched.get(i).name())) {
                return;
            }
        }
        evaluateComposites(service.compositesAfter(matched));
        afterStep();
    }

    /**
     * The expiry of timer {@code timerId}. Ignored unless it is the current setting of that timer
     * ({@code generation}): a timer re-set or cancelled after this expiry was queued must not fire.
     * With the budget spent it waits, in order, until the budget refills.
     */
    public void onTimer(int timerId, long generation) {
        if (ended != null) {
            return;
        }
        if (timerId == WAKE_TIMER) {
            if (wake != null && generation == wakeGeneration) {
                wake = null;
                stepWaiting();
            }
            return;
        }
        if (timers.generation(timerId) != generation || generation < 0) {
            return;
        }
        if (mustWait(false)) {
            waitFor(new WaitingTimer(timerId, generation));
            return;
        }
        timerStep(timerId);
    }

    /**
     * Whether an event must wait (or be refused): others wait already, or the budget is spent
     * ({@code first}: the instance's first event, which the budget never holds back).
     */
    private boolean mustWait(boolean first) {
        return (waiting != null && !waiting.isEmpty())
                || (!first && !budget.hasToken(env.overlay().timers().nanoTime()));
    }

    /** Keeps {@code event} until the budget refills, and makes sure a wake-up comes then. */
    private void waitFor(Object event) {
        if (waiting == null) {
            waiting = new ArrayDeque<>(4);
        }
        waiting.add(event);
        service.counters().eventDeferred();
        env.nodeCounters().eventDeferred();
        armWake();
    }

    private void armWake() {
        if (wake != null) {
            return;
        }
        long nanos = budget.nanosUntilToken(env.overlay().timers().nanoTime());
        long ms = Math.max(1, (nanos + 999_999) / 1_000_000);
        wake = env.schedule(this, WAKE_TIMER, ++wakeGeneration, ms);
    }

    /** Steps the waiting events, oldest first, while the budget holds a call. */
    private void stepWaiting() {
        while (ended == null && !waiting.isEmpty() && budget.hasToken(env.overlay().timers().nanoTime())) {
            Object e = waiting.poll();
            if (e instanceof WaitingMessage m) {
                waitingMessages--;
                messageStep(m.message(), m.matched());
            } else if (e instanceof WaitingTimer t && timers.generation(t.timerId()) == t.generation()) {
                timerStep(t.timerId());
            }
        }
        if (ended == null && !waiting.isEmpty()) {
            armWake();
        }
    }

    /** Steps the expiry of timer {@code timerId}, the current setting of a timer set now. */
    private void timerStep(int timerId) {
        stepped = true;
        timers.remove(timerId);
        if (timerId < 0) {
            delayedSendDue(timerId);
            return;
        }
        List<TimerEventDefinition> matched = service.spec().matchTimer(timerId);
        if (matched.isEmpty()) {
            return;
        }
        if (inFlightCounted && inFlightHeld == 0 && inFlightTimeouts < 2 && ++inFlightTimeouts == 2) {
            // the service's timeout ran out a second time on a message still in flight: its
            // retransmission (or repeated request) went unanswered too. One timeout is what an
            // isolated random loss costs; repeats are what congestion looks like (AimdWindow)
            inFlightCount.timedOut();
        }
        service.counters().timerEvent();
        env.nodeCounters().timerEvent();
        stepNanos = env.overlay().timers().nanoTime();
        long now = nowMillis();
        long evictedBefore = history.evicted();
        for (TimerEventDefinition d : matched) {
            history.addTimerEvent(d.name(), timerId, now, d.historyXmlNeeded());
        }
        countEvictions(evictedBefore);
        List<CompositeEventDefinition> composites = new ArrayList<>(0);
        for (TimerEventDefinition d : matched) {
            if (!fire(d.name())) {
                return;
            }
            for (CompositeEventDefinition c : service.spec().compositesTriggeredBy(d.name())) {
                if (!composites.contains(c)) {
                    composites.add(c);
                }
            }
        }
        evaluateComposites(composites);
        afterStep();
    }

    private void countEvictions(long before) {
        long n = history.evicted() - before;
        for (long i = 0; i < n; i++) {
            service.counters().historyEvicted();
            env.nodeCounters().historyEvicted();
        }
    }

    /** Fires one event and runs its actions; false if the instance ended. */
    private boolean fire(String event) {
        ActionQueue queue = env.actionQueue();
        int mark = queue.mark();
        try {
            machine.fire(service.spec().chartEvent(event));
        } catch (RuntimeException e) {
            engineError("firing " + event, e);
        }
        if (stoppedByLimit(queue, mark)) {
            return false;
        }
        runActions(queue, mark);
        if (terminateRequested) {
            end(EndCause.TERMINATED);
            return false;
        }
        return true;
    }

    private void evaluateComposites(List<CompositeEventDefinition> composites) {
        for (int i = 0, n = composites.size(); i < n; i++) {
            if (service.quarantined() || ended != null) {
                return;
            }
            CompositeEventDefinition c = composites.get(i);
            boolean fires;
            try {
                fires = env.evaluator().evaluateQuery(service, c.query(), service.bindings(), machine.datamodel(),
                        history);
            } catch (EvaluationException e) {
                evaluationFailed(e);
                continue;
            }
            service.counters().compositeEvaluated(fires);
            env.nodeCounters().compositeEvaluated(fires);
            if (fires && !fire(c.name())) {
                return;
            }
        }
    }

    private void afterStep() {
        if (ended == null && inFinalState()) {
            end(EndCause.FINISHED);
        }
        updateInFlight();
    }

    /**
     * Takes over one unit of {@code count} that the store added when it accepted a message from
     * this node's application for this instance; call before {@link #onMessage} with that message.
     * From then on the instance keeps the count in step with its state: counted while in one of the
     * spec's in-flight states, not once it left them or ended. Under an {@code <InFlightCount>}
     * spec the instance counts what its variable says after each step instead, and never takes
     * the unit.
     *
     * @return false if the instance did not take it (it ended, it holds an own message already, or
     *         its spec counts by variable): the caller gives the unit back after the step
     */
    public boolean adoptOwnMessage(InFlightCounter count) {
        Objects.requireNonNull(count, "count");
        if (ended != null) {
            return false;
        }
        if (service.spec().inFlightCountIndex() >= 0) {
            // counted by the spec's variable after the step: the store's unit goes back then
            inFlightCount = count;
            return false;
        }
        if (inFlightCount != null) {
            return false;
        }
        inFlightCount = count;
        inFlightCounted = true;
        return true;
    }

    private void updateInFlight() {
        if (inFlightCount == null) {
            return;
        }
        int index = service.spec().inFlightCountIndex();
        if (index >= 0) {
            updateHeld(index);
            return;
        }
        boolean now = ended == null && machine.inFlight();
        if (now != inFlightCounted) {
            inFlightCounted = now;
            if (now) {
                inFlightCount.add();
            } else {
                inFlightCount.complete();
            }
        }
    }

    /**
     * Brings this instance's share of the count to its {@code <InFlightCount>} variable plus its
     * messages waiting for the budget (0 once ended). Decreases are completions (they let an AIMD
     * window grow); a count never signals a timeout: the spec retransmits and backs off itself.
     */
    private void updateHeld(int index) {
        int now = ended == null ? heldValue(index) + waitingMessages : 0;
        int delta = now - inFlightHeld;
        if (delta > 0) {
            inFlightCount.add(delta);
        } else if (delta < 0) {
            inFlightCount.complete(-delta);
        }
        inFlightHeld = now;
        inFlightCounted = now > 0;
    }

    /** The variable's value as a count: a whole number, 0 when it is none or below 0. */
    private int heldValue(int index) {
        DatamodelItem item = machine.datamodel().item(index);
        if (item == null) {
            return 0;
        }
        Number n = item.number();
        double v;
        if (n != null) {
            v = n.doubleValue();
        } else {
            try {
                v = Double.parseDouble(item.text().strip());
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return v >= 1 ? (int) Math.min(Integer.MAX_VALUE / 2, v) : 0;
    }

    /** Whether this instance counts as one of its node's own messages in flight now. */
    public boolean countedInFlight() {
        return inFlightCounted;
    }

    private boolean inFinalState() {
        return machine.inFinalState();
    }

    /**
     * Runs, in order, the actions this step queued above {@code mark} (the blueprint's
     * dispatchAction), then drops them. An instance disposed by one of its own actions (its
     * service quarantined, the store closing) runs no more of them. Not in a {@code finally}: a
     * shard thread the watchdog abandoned unwinds with an error and must leave the queue, by then
     * its successor's, alone (what it leaves above its mark is never run, and lies below every
     * later step's mark).
     */
    private void runActions(ActionQueue queue, int mark) {
        for (int i = mark; i < queue.size() && ended == null; i++) {
            runAction(queue.get(i));
        }
        queue.truncate(mark);
    }

    private void runAction(ActionTemplate a) {
        if (terminateRequested) {
            record(a, ActionOutcome.DISCARDED, "after terminate");
            return;
        }
        if (a.primitive() != Primitive.TERMINATE) {
            // the step was admitted: every call of it runs, into debt if need be (see the class comment)
            budget.take(stepNanos);
        }
        if (a.primitive().sends() && !service.trySend(env.sendBudget(), stepNanos)) {
            record(a, ActionOutcome.OVER_SERVICE_BUDGET, "service over " + env.sendBudget().perSecond() + " sends/s");
            if (service.budgetLog.allow()) {
                LOG.warn("{}: {} dropped: the service sent more than {} messages/s (burst {}) from this node; {} more "
                        + "since the last report", service, a.primitive().specName(), env.sendBudget().perSecond(),
                        env.sendBudget().burst(), service.budgetLog.takeSuppressed());
            }
            return;
        }
        try {
            record(a, ActionOutcome.EXECUTED, PrimitiveExecutor.execute(a, service.fields(a), this));
        } catch (ActionException e) {
            record(a, ActionOutcome.FAILED, e.getMessage());
            if (service.actionLog.allow()) {
                LOG.warn("{}: {}: action failed: {} ({} more since last report)", service, key, e.getMessage(),
                        service.actionLog.takeSuppressed());
            }
        } catch (EvaluationException e) {
            record(a, ActionOutcome.FAILED, e.getMessage());
            evaluationFailed(e);
        } catch (RuntimeException e) {
            record(a, ActionOutcome.FAILED, e.toString());
            if (service.actionLog.allow()) {
                LOG.warn("{}: {}: {} failed unexpectedly", service, key, a.primitive().specName(), e);
            }
        }
    }

    private void record(ActionTemplate a, ActionOutcome outcome, String detail) {
        service.counters().action(a.primitive(), outcome);
        env.nodeCounters().action(a.primitive(), outcome);
        actions.add(a.primitive(), a.line(), nowMillis(), outcome, detail);
    }

    private void evaluationFailed(EvaluationException e) {
        service.counters().evaluationFailed();
        env.nodeCounters().evaluationFailed();
        if (e.fatal()) {
            env.quarantine(service, e.getMessage());
        } else if (service.actionLog.allow()) {
            LOG.warn("{}: {}: {} ({} more since last report)", service, key, e.getMessage(),
                    service.actionLog.takeSuppressed());
        }
    }

    private void engineError(String what, Exception e) {
        service.counters().engineError();
        env.nodeCounters().engineError();
        if (service.engineLog.allow()) {
            LOG.warn("{}: {}: engine error {}: {}", service, key, what, e.toString());
        }
    }

    /**
     * After an engine step: if a bound of the machine stopped it ({@link ChartLimit}), the step did
     * not complete, so the actions it queued above {@code mark} are discarded (recorded as such),
     * and the instance ends with {@link EndCause#LIMIT}. The service goes on: one instance's loop
     * or overflow is bounded by the limit itself and says nothing about the service's next one.
     *
     * @return whether the machine was stopped (the instance has ended)
     */
    private boolean stoppedByLimit(ActionQueue queue, int mark) {
        ChartLimit limit = machine.stoppedBy();
        if (limit == null) {
            return false;
        }
        for (int i = mark; i < queue.size(); i++) {
            record(queue.get(i), ActionOutcome.DISCARDED, "the state machine was stopped by " + limit.setting());
        }
        queue.truncate(mark);
        int k = limit.ordinal();
        if (service.limitLog.allow(k)) {
            LOG.warn("{}: {}: the state machine passed {}={} in state {}; the instance ends ({} more of this "
                    + "service since the last report)", service, key, limit.setting(),
                    limit.value(MachineState.limits()), machine.stoppedIn(), service.limitLog.takeSuppressed(k));
        }
        end(EndCause.LIMIT);
        return true;
    }

    private void end(EndCause cause) {
        if (ended != null) {
            return;
        }
        dispose(cause);
        env.ended(this, cause);
    }

    /**
     * Ends the instance without telling the environment (the store removes it itself: idle,
     * unload, quarantine, close): cancels its timers. Idempotent.
     */
    public void dispose(EndCause cause) {
        if (ended != null) {
            return;
        }
        ended = cause;
        service.instanceEnded(history.size(), actions.size());
        updateInFlight();
        timers.cancelAll();
        if (wake != null) {
            wake.cancel();
            wake = null;
        }
        waiting = null;
        waitingMessages = 0;
    }

    /** The current step's time in milliseconds of the node's clock. */
    private long nowMillis() {
        return TimeUnit.NANOSECONDS.toMillis(stepNanos);
    }

    // ------------------------------------------------------------------ ActionSink

    @Override
    public void enqueue(ActionTemplate action) {
        env.actionQueue().add(action);
    }

    // ------------------------------------------------------------------ ActionContext

    @Override
    public ServiceSpec spec() {
        return service.spec();
    }

    @Override
    public OverlayContext overlay() {
        return env.overlay();
    }

    @Override
    public PathResult evaluate(CompiledPath path) throws EvaluationException {
        if (path.compiled() == null && service.quarantined()) {
            throw new EvaluationException("service is quarantined", false, null);
        }
        return env.evaluator().evaluatePath(service, path, service.bindings(), machine.datamodel(), history);
    }

    @Override
    public long defaultMessageId() {
        return key.scope().perMessage() ? key.messageId() : env.overlay().newMessageId();
    }

    @Override
    public LogicalAddress defaultOrigin() {
        return key.scope().perMessage() ? key.address() : null;
    }

    @Override
    public long nextFlowSequence() {
        LogicalAddress source = key.flowSource() != null ? key.flowSource()
                : flowSource != null ? flowSource : env.overlay().localAddress();
        return service.sequences().next(source);
    }

    @Override
    public long instanceSequence() {
        if (instanceSequence < 0) {
            instanceSequence = nextFlowSequence();
        }
        return instanceSequence;
    }

    @Override
    public OverlayMessage lastMessage() {
        return history.lastMessage();
    }

    @Override
    public void setTimer(int timerId, long delayMillis) throws ActionException {
        TimerService.Timer old = timers.remove(timerId);
        if (old != null) {
            old.cancel();
        } else if (timers.size() >= env.limits().timersPerInstance()) {
            throw new ActionException("the instance has " + timers.size()
                    + " timers set, the most allowed (timersPerInstance)");
        }
        timers.put(env.schedule(this, timerId, ++timerGeneration, delayMillis));
    }

    @Override
    public Object schedule(long delayMillis, Runnable task) {
        if (timers.size() >= env.limits().timersPerInstance()) {
            throw new IllegalStateException("the instance has " + timers.size()
                    + " timers set, the most allowed (timersPerInstance)");
        }
        if (sendTasks == null) {
            sendTasks = new java.util.HashMap<>(4);
        }
        int id = nextSendTimer;
        while (sendTasks.containsKey(id)) {
            id = id == LAST_SEND_TIMER ? FIRST_SEND_TIMER : id - 1;
        }
        nextSendTimer = id == LAST_SEND_TIMER ? FIRST_SEND_TIMER : id - 1;
        sendTasks.put(id, task);
        timers.put(env.schedule(this, id, ++timerGeneration, delayMillis));
        return id;
    }

    @Override
    public void cancel(Object handle) {
        if (handle instanceof Integer id && sendTasks != null && sendTasks.remove(id) != null) {
            cancelTimer(id);
        }
    }

    @Override
    public net.sf.saxon.s9api.XdmValue platform() {
        return PlatformVariables.of(history.queryable() ? history.document() : null, env.overlay(), nowMillis());
    }

    // the compiled subset's reads of $_x: the same values as platform(), without building it
    @Override
    public Object platformEntry(String key) {
        return PlatformVariables.entry(env.overlay(), nowMillis(), key);
    }

    @Override
    public Object platformLookup(String map, String key) {
        return PlatformVariables.lookup(env.overlay(), map, key);
    }

    @Override
    public Object[] platformValues(String map) {
        return PlatformVariables.values(env.overlay(), map);
    }

    // a cond's or assign's read of $_x?history, compiled: the history's entries, no document
    @Override
    public List<Object> historyItems(CompiledExpression read, DatamodelValues data) {
        if (!history.queryable()) {
            return List.of(); // $_x has no history entry then
        }
        try {
            return read.atomized(history, service.bindings(), data);
        } catch (EvaluationException e) {
            return null; // Saxon evaluates it and reports the error as it would have
        }
    }

    /** A delayed {@code <send>} fell due: the machine takes its event, then its actions run. */
    private void delayedSendDue(int timerId) {
        Runnable task = sendTasks == null ? null : sendTasks.remove(timerId);
        if (task == null) {
            return;
        }
        stepNanos = env.overlay().timers().nanoTime();
        ActionQueue queue = env.actionQueue();
        int mark = queue.mark();
        try {
            machine.runDelayed(task);
        } catch (RuntimeException e) {
            engineError("a delayed send", e);
        }
        if (stoppedByLimit(queue, mark)) {
            return;
        }
        runActions(queue, mark);
        if (terminateRequested) {
            end(EndCause.TERMINATED);
            return;
        }
        afterStep();
    }

    @Override
    public boolean cancelTimer(int timerId) {
        TimerService.Timer t = timers.remove(timerId);
        if (t == null) {
            return false;
        }
        t.cancel();
        return true;
    }

    @Override
    public void terminate() {
        terminateRequested = true;
    }

    @Override
    public int forget(CompiledPath path) throws EvaluationException {
        if (service.quarantined()) {
            throw new EvaluationException("service is quarantined", false, null);
        }
        return env.evaluator().forget(service, path, service.bindings(), machine.datamodel(), history);
    }

    @Override
    public void recordNode(NodeSnapshot node) {
        long before = history.evicted();
        history.addNodeRecord(service.canonical(node), nowMillis());
        countEvictions(before);
    }

    // ------------------------------------------------------------------ inspection

    /** The instance's key. */
    public InstanceKey key() {
        return key;
    }

    /** The service it runs. */
    public ServiceRuntime service() {
        return service;
    }

    /** The history of basic events and node records. */
    public History history() {
        return history;
    }

    /** The most recent actions, oldest first (at most {@code actionHistoryEntries}). */
    public List<ActionRecord> actionHistory() {
        return actions.records();
    }

    /** The ids of the engine's current (atomic) states. */
    public Set<String> states() {
        return new TreeSet<>(machine.states());
    }

    /** The timers set now. */
    public Set<Integer> timersSet() {
        return timers.ids();
    }

    /** The bound that stopped its state machine (it ended with {@link EndCause#LIMIT}), or {@code null}. */
    public ChartLimit stoppedBy() {
        return machine.stoppedBy();
    }

    /** Why it ended, or {@code null} while it runs. */
    public EndCause ended() {
        return ended;
    }

    /** When it was created, in nanoseconds of the node's clock. */
    public long createdNanos() {
        return createdNanos;
    }

    /** When a message last reached it, in nanoseconds of the node's clock. */
    public long lastMessageNanos() {
        return lastMessageNanos;
    }

    @Override
    public String toString() {
        return "ServiceInstance[" + key + " of " + service.name() + (ended != null ? ", " + ended : "") + "]";
    }

}
