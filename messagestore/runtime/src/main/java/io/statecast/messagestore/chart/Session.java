package io.statecast.messagestore.chart;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.w3c.dom.Element;

/**
 * One running machine of a {@link Chart}: the Recommendation's algorithm (Appendix D) over the
 * chart's compiled states and transitions, with its own XPath datamodel, internal queue, external
 * queue for events it sends itself, history values and delayed sends.
 *
 * <p>Drive it with {@link #start()}, then {@link #process(ChartEvent)} for each external event
 * (and {@link #processExternal()} when the host is told that the session queued one for itself).
 * Confined to one thread; not thread-safe.
 */
public final class Session {

    private final Chart chart;
    private final ChartHost host;
    private final ChartLimits limits;
    /** The configuration: membership by state index. */
    /** The configuration, a bit per state index: states 0..63 here, the rest (large charts only) in {@link #wide}. */
    private long active;
    private final long[] wide;
    /** What only some charts use, made on first use: a lingering instance keeps only its configuration. */
    private Rare rare;
    /** The datamodel, made when an expression first runs or a declaration needs it. */
    private XPathData data;
    private boolean running;
    private boolean started;
    private String finalState;
    private ChartEvent current;

    /**
     * A session not yet started.
     *
     * @param sessionId the value of {@code _sessionid}, unique among the host's sessions; {@code null}
     *                  to ask {@link ChartHost#sessionId} when the chart first reads it
     */
    public Session(Chart chart, ChartHost host, ChartLimits limits, String sessionId) {
        this.chart = Objects.requireNonNull(chart, "chart");
        this.host = Objects.requireNonNull(host, "host");
        this.limits = Objects.requireNonNull(limits, "limits");
        int n = chart.states().length;
        this.wide = n > 64 ? new long[(n - 1) / 64] : null;
        if (sessionId != null || chart.lateBinding()) {
            rare().sessionId = sessionId;
            rare().entered = chart.lateBinding() ? new boolean[chart.states().length] : null;
        }
    }

    private boolean isOn(int i) {
        return i < 64 ? (active & (1L << i)) != 0 : (wide[(i >> 6) - 1] & (1L << i)) != 0;
    }

    private void on(int i) {
        if (i < 64) {
            active |= 1L << i;
        } else {
            wide[(i >> 6) - 1] |= 1L << i;
        }
    }

    private void off(int i) {
        if (i < 64) {
            active &= ~(1L << i);
        } else {
            wide[(i >> 6) - 1] &= ~(1L << i);
        }
    }

    /** The state few sessions need, apart so that the rest do not carry its fields. */
    private static final class Rare {
        String sessionId;
        /** States entered at least once (late binding only). */
        boolean[] entered;
        ArrayDeque<ChartEvent> internal;
        ArrayDeque<ChartEvent> external;
        Map<StateNode, List<StateNode>> historyValue;
        Map<String, Object> pendingSends;
        long sendIds;
        String stopReason;
        ChartLimit stoppedBy;
        List<String> stoppedIn;
    }

    private Rare rare() {
        if (rare == null) {
            rare = new Rare();
        }
        return rare;
    }

    /** Initialises the datamodel, enters the initial configuration and runs to a stable one. */
    public void start() {
        if (started) {
            throw new IllegalStateException("already started");
        }
        started = true;
        running = true;
        StateNode root = chart.states()[0];
        if (chart.hasData()) {
            XPathData d = data();
            d.declareAll();
            if (chart.lateBinding()) {
                initData(root);
            } else {
                for (StateNode s : chart.states()) {
                    initData(s);
                }
            }
        }
        if (rare != null && rare.entered != null) {
            rare.entered[0] = true;
        }
        microstep(root.initial);
        macrostep();
    }

    /** Processes one external event (ignored once the session has ended). */
    public void process(ChartEvent event) {
        if (!running) {
            return;
        }
        current = event;
        Object enabled = selectTransitions(event);
        if (enabled != null) {
            microstep(enabled);
        }
        macrostep();
    }

    /** Processes the events the session queued for itself, in order, until none is left or it ended. */
    public void processExternal() {
        while (running && rare != null && rare.external != null && !rare.external.isEmpty()) {
            process(rare.external.poll());
        }
    }

    /** Whether the session has external events it sent itself waiting. */
    public boolean hasExternal() {
        return rare != null && rare.external != null && !rare.external.isEmpty();
    }

    /** Whether the session has started and not reached a top-level final state. */
    public boolean running() {
        return running;
    }

    /** Why the session was stopped by a limit, or {@code null}. */
    public String stopReason() {
        return rare == null ? null : rare.stopReason;
    }

    /** The bound whose excess stopped the session, or {@code null} if none did. */
    public ChartLimit stoppedBy() {
        return rare == null ? null : rare.stoppedBy;
    }

    /**
     * The active atomic states when a limit stopped the session (the configuration is empty
     * afterwards: the session exited its states); empty if no limit stopped it.
     */
    public List<String> stoppedIn() {
        return rare == null || rare.stoppedIn == null ? List.of() : rare.stoppedIn;
    }

    /** The id of the top-level final state the session ended in, or {@code null}. */
    public String finalState() {
        return finalState;
    }

    /** The ids of the active states in document order. */
    public List<String> activeStates() {
        List<String> ids = new ArrayList<>();
        for (StateNode s : chart.states()) {
            if (isOn(s.index) && s.kind != StateKind.ROOT) {
                ids.add(s.id);
            }
        }
        return ids;
    }

    /**
     * The active atomic states' ids in document order; after the session ended in a top-level
     * final state, that state alone.
     */
    public List<String> activeAtomicStates() {
        if (finalState != null) {
            return List.of(finalState);
        }
        List<String> ids = new ArrayList<>(2);
        for (StateNode s : chart.states()) {
            if (isOn(s.index) && s.isAtomic()) {
                ids.add(s.id);
            }
        }
        return ids;
    }

    /** Whether any active state has {@code mask[index]} set (a mask over the chart's states). */
    public boolean anyActive(boolean[] mask) {
        for (int i = 0; i < chart.states().length; i++) {
            if (isOn(i) && mask[i]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Puts a session that was never started into the configuration of these atomic states and
     * their ancestors, as if it had got there (for a model checker resuming from a snapshot of a
     * chart without history), its variables at their declared initial values; a top-level final
     * state alone is an ended session.
     *
     * @throws IllegalArgumentException naming an id that is not an atomic state of the chart
     */
    public void restore(java.util.Collection<String> atomicStateIds) {
        if (started) {
            throw new IllegalStateException("already started");
        }
        started = true;
        running = true;
        for (String id : atomicStateIds) {
            StateNode s = chart.state(id);
            if (s == null || !s.isAtomic()) {
                throw new IllegalArgumentException("'" + id + "' is not an atomic state of the chart");
            }
            if (s.kind == StateKind.FINAL && s.parent.kind == StateKind.ROOT) {
                running = false;
                finalState = s.id;
                return;
            }
            for (StateNode a = s; a.parent != null; a = a.parent) {
                on(a.index);
            }
        }
        // the datamodel as a start leaves it (its declared initial values): a restored
        // configuration carries states only, but its actions may read and assign variables
        if (chart.hasData()) {
            XPathData d = data();
            d.declareAll();
            for (StateNode st : chart.states()) {
                if (!chart.lateBinding() || st == chart.states()[0] || isOn(st.index)) {
                    initData(st);
                }
            }
        }
    }

    /** Whether the state with this id is active (the {@code In()} predicate). */
    public boolean isActive(String stateId) {
        StateNode s = chart.state(stateId);
        return s != null && isOn(s.index);
    }

    /** {@code _sessionid}. */
    public String sessionId() {
        Rare r = rare();
        if (r.sessionId == null) {
            r.sessionId = host.sessionId(this);
        }
        return r.sessionId;
    }

    /** The event being processed (bound to {@code _event} when an expression reads it), or {@code null}. */
    ChartEvent currentEvent() {
        return current;
    }

    // ---- the Recommendation's procedures ----------------------------------------------------

    private void macrostep() {
        int steps = 0;
        while (running) {
            Object enabled = chart.hasEventless() ? selectTransitions(null) : null;
            if (enabled == null) {
                ChartEvent e = rare == null || rare.internal == null ? null : rare.internal.poll();
                if (e == null) {
                    break;
                }
                current = e;
                enabled = selectTransitions(e);
            }
            if (enabled != null) {
                if (++steps > limits.maxMicrosteps()) {
                    stop(ChartLimit.MICROSTEPS, "more than " + limits.maxMicrosteps()
                            + " microsteps without waiting for an event");
                    break;
                }
                microstep(enabled);
            }
        }
        if (!running) {
            exitInterpreter();
        }
    }

    private void exitInterpreter() {
        StateNode[] states = chart.states();
        for (int i = states.length - 1; i > 0; i--) {
            if (isOn(i)) {
                for (Action[] block : states[i].onExit) {
                    Action.runBlock(block, this);
                }
                off(i);
            }
        }
        if (rare != null) {
            if (rare.pendingSends != null) {
                for (Object handle : rare.pendingSends.values()) {
                    host.cancel(handle);
                }
                rare.pendingSends.clear();
            }
            rare.internal = null;
            rare.external = null;
        }
    }

    /**
     * The transitions {@code event} enables (eventless ones when it is {@code null}): a
     * {@link Transition} when one is (the usual case, no list made), a {@code List<Transition>}
     * when several are (after conflict resolution), {@code null} when none is.
     */
    private Object selectTransitions(ChartEvent event) {
        Transition first = null;
        List<Transition> more = null;
        StateNode[] states = chart.states();
        for (StateNode state : states) {
            if (!isOn(state.index) || !state.isAtomic()) {
                continue;
            }
            Transition t = firstEnabled(state, event);
            if (t == null || t == first || (more != null && more.contains(t))) {
                continue;
            }
            if (first == null) {
                first = t;
            } else {
                if (more == null) {
                    more = new ArrayList<>(4);
                    more.add(first);
                }
                more.add(t);
            }
        }
        if (more == null) {
            return first;
        }
        List<Transition> filtered = removeConflicting(more);
        return filtered.size() == 1 ? filtered.get(0) : filtered;
    }

    /** The first transition on the chain from atomic {@code state} up that {@code event} enables. */
    private Transition firstEnabled(StateNode state, ChartEvent event) {
        Transition[] candidates = event == null ? state.eventless : state.candidates(event.name());
        if (candidates != null) {
            for (Transition t : candidates) {
                if (t.cond() == null || test(t.cond())) {
                    return t;
                }
            }
            return null;
        }
        // an event name the chart's descriptors do not spell out: matched by prefix or wildcard
        for (StateNode s = state; s != null; s = s.parent) {
            for (Transition t : s.transitions) {
                if (t.matches(event.name()) && (t.cond() == null || test(t.cond()))) {
                    return t;
                }
            }
        }
        return null;
    }

    private List<Transition> removeConflicting(List<Transition> enabled) {
        List<Transition> filtered = new ArrayList<>();
        for (Transition t1 : enabled) {
            boolean preempted = false;
            List<Transition> toRemove = new ArrayList<>();
            boolean[] exit1 = exitSet(List.of(t1));
            for (Transition t2 : filtered) {
                if (intersects(exit1, exitSet(List.of(t2)))) {
                    if (t1.source().isDescendantOf(t2.source())) {
                        toRemove.add(t2);
                    } else {
                        preempted = true;
                        break;
                    }
                }
            }
            if (!preempted) {
                filtered.removeAll(toRemove);
                filtered.add(t1);
            }
        }
        return filtered;
    }

    private static boolean intersects(boolean[] a, boolean[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] && b[i]) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private void microstep(Object enabled) {
        if (enabled instanceof Transition t && t.plan != null && !t.plan.exitsHistory()) {
            planned(t, t.plan);
            return;
        }
        List<Transition> list = enabled instanceof Transition t ? List.of(t) : (List<Transition>) enabled;
        exitStates(list);
        for (Transition t : list) {
            Action.runBlock(t.body(), this);
        }
        enterStates(list);
    }

    /** The step of one transition whose exit and entry sets were worked out at compile time. */
    private void planned(Transition t, EntryPlan plan) {
        if (t.targets().length > 0) {
            StateNode[] states = chart.states();
            StateNode domain = plan.domain();
            for (int i = domain.lastDescendant; i > domain.index; i--) {
                if (isOn(i)) {
                    for (Action[] block : states[i].onExit) {
                        Action.runBlock(block, this);
                    }
                    off(i);
                }
            }
        }
        Action.runBlock(t.body(), this);
        StateNode[] enter = plan.enter();
        boolean[] defaults = plan.defaultEntry();
        for (int k = 0; k < enter.length; k++) {
            enter(enter[k], defaults[k], null);
        }
    }

    private Entries.HistoryLookup historyLookup() {
        return rare == null || rare.historyValue == null ? Entries.NONE : rare.historyValue::get;
    }

    private boolean[] exitSet(List<Transition> transitions) {
        boolean[] exit = new boolean[chart.states().length];
        Entries e = new Entries(chart.states()[0], chart.states().length, historyLookup());
        for (Transition t : transitions) {
            if (t.targets().length > 0) {
                StateNode domain = e.domain(t);
                for (int i = domain.index + 1; i <= domain.lastDescendant; i++) {
                    if (isOn(i)) {
                        exit[i] = true;
                    }
                }
            }
        }
        return exit;
    }

    private void exitStates(List<Transition> enabled) {
        boolean[] exit = exitSet(enabled);
        StateNode[] states = chart.states();
        for (int i = states.length - 1; i > 0; i--) {
            if (!exit[i]) {
                continue;
            }
            for (StateNode h : states[i].histories) {
                List<StateNode> remembered = new ArrayList<>();
                for (int j = i + 1; j <= states[i].lastDescendant; j++) {
                    StateNode s = states[j];
                    if (isOn(j) && (h.kind == StateKind.DEEP_HISTORY ? s.isAtomic() : s.parent == states[i])) {
                        remembered.add(s);
                    }
                }
                Rare r = rare();
                if (r.historyValue == null) {
                    r.historyValue = new HashMap<>();
                }
                r.historyValue.put(h, remembered);
            }
        }
        for (int i = states.length - 1; i > 0; i--) {
            if (exit[i]) {
                for (Action[] block : states[i].onExit) {
                    Action.runBlock(block, this);
                }
                off(i);
            }
        }
    }

    private void enterStates(List<Transition> enabled) {
        Entries entries = new Entries(chart.states()[0], chart.states().length, historyLookup());
        for (Transition t : enabled) {
            entries.add(t);
        }
        StateNode[] states = chart.states();
        for (int i = 1; i < states.length; i++) {
            if (entries.toEnter[i]) {
                enter(states[i], entries.defaultEntry[i],
                        entries.historyContent == null ? null : entries.historyContent.get(states[i]));
            }
        }
    }

    /** Enters one state of an entry set (in entry order): data, onentry, defaults, done events. */
    private void enter(StateNode s, boolean defaultEntry, Action[] historyContent) {
        int i = s.index;
        on(i);
        if (rare != null && rare.entered != null && !rare.entered[i]) {
            rare.entered[i] = true;
            initData(s);
        }
        for (Action[] block : s.onEntry) {
            Action.runBlock(block, this);
        }
        if (defaultEntry && s.initial != null) {
            Action.runBlock(s.initial.body(), this);
        }
        if (historyContent != null) {
            Action.runBlock(historyContent, this);
        }
        if (s.kind != StateKind.FINAL) {
            return;
        }
        StateNode parent = s.parent;
        if (parent.kind == StateKind.ROOT) {
            running = false;
            finalState = s.id;
            return;
        }
        Element done = null;
        if (s.doneData != null) {
            try {
                done = data().doneData(s.doneData);
            } catch (ChartError e) {
                raiseError(e);
            }
        }
        raiseInternal(ChartEvent.platform("done.state." + parent.id, null, done));
        StateNode grandparent = parent.parent;
        if (grandparent != null && grandparent.kind == StateKind.PARALLEL) {
            for (StateNode c : grandparent.children) {
                if (!inFinalState(c)) {
                    return;
                }
            }
            raiseInternal(ChartEvent.platform("done.state." + grandparent.id, null, null));
        }
    }

    private boolean inFinalState(StateNode s) {
        if (s.kind == StateKind.COMPOUND) {
            for (StateNode c : s.children) {
                if (c.kind == StateKind.FINAL && isOn(c.index)) {
                    return true;
                }
            }
            return false;
        }
        if (s.kind == StateKind.PARALLEL) {
            for (StateNode c : s.children) {
                if (!inFinalState(c)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private void initData(StateNode s) {
        for (DataDecl d : s.data) {
            try {
                data().init(d);
            } catch (ChartError e) {
                raiseError(e);
            }
        }
    }

    // ---- what executable content calls ------------------------------------------------------

    XPathData data() {
        if (data == null) {
            data = new XPathData(chart, this, limits);
        }
        return data;
    }

    ChartHost host() {
        return host;
    }

    /** The datamodel if an expression or a declaration made it, else {@code null} (nothing is made here). */
    XPathData dataIfAny() {
        return data;
    }

    /**
     * The session's datamodel variables by index in {@code ids} (a spec's data ids), for the spec's
     * composite queries and action XPaths. Make one per session and keep it: its items are made
     * once per variable.
     */
    public io.statecast.messagestore.event.DatamodelValues datamodelValues(List<String> ids) {
        return new DataView(this, ids);
    }

    /** A condition: false, with {@code error.execution} raised, when it cannot be evaluated. */
    boolean test(Expr cond) {
        try {
            return data().test(cond);
        } catch (ChartError e) {
            raiseError(e);
            return false;
        }
    }

    void raiseInternal(ChartEvent e) {
        if (!queueFull()) {
            Rare r = rare();
            if (r.internal == null) {
                r.internal = new ArrayDeque<>(4);
            }
            r.internal.add(e);
        }
    }

    /** Whether the queues are full; a session that overflows them is stopped. */
    private boolean queueFull() {
        int queued = rare == null ? 0 : (rare.internal == null ? 0 : rare.internal.size())
                + (rare.external == null ? 0 : rare.external.size());
        if (queued < limits.maxQueuedEvents()) {
            return false;
        }
        if (running) {
            stop(ChartLimit.QUEUED_EVENTS, "more than " + limits.maxQueuedEvents() + " events queued");
        }
        return true;
    }

    /** Stops a running session because {@code limit} was passed; the first stop is the one kept. */
    private void stop(ChartLimit limit, String reason) {
        Rare r = rare();
        if (r.stoppedBy == null) {
            r.stoppedBy = limit;
            r.stopReason = reason;
            r.stoppedIn = List.copyOf(activeAtomicStates());
        }
        running = false;
    }

    void raiseError(ChartError e) {
        raiseInternal(ChartEvent.platform(e.event, e.sendId, null));
        host.log("error", e.event + ": " + e.getMessage());
    }

    String newSendId() {
        return sessionId() + ".send." + (++rare().sendIds);
    }

    /** Queues a sent event now or after {@code delayMillis}. */
    void dispatch(ChartEvent e, boolean toInternal, long delayMillis) throws ChartError {
        if (delayMillis <= 0) {
            enqueue(e, toInternal);
            return;
        }
        Rare r = rare();
        if (r.pendingSends == null) {
            r.pendingSends = new HashMap<>();
        }
        Map<String, Object> pendingSends = r.pendingSends;
        if (pendingSends.size() >= limits.maxPendingSends()) {
            throw new ChartError("more than " + limits.maxPendingSends() + " delayed sends outstanding");
        }
        String key = e.sendId() != null ? e.sendId() : newSendId();
        Object[] handle = new Object[1];
        try {
            handle[0] = host.schedule(delayMillis, () -> {
            if (pendingSends.get(key) == handle[0]) {
                pendingSends.remove(key);
                if (running) {
                    enqueue(e, toInternal);
                }
            }
            });
        } catch (RuntimeException refused) {
            throw new ChartError("error.execution", "the delayed send cannot be scheduled: " + refused.getMessage(),
                    e.sendId());
        }
        pendingSends.put(key, handle[0]);
    }

    private void enqueue(ChartEvent e, boolean toInternal) {
        if (toInternal) {
            raiseInternal(e);
            return;
        }
        if (queueFull()) {
            return;
        }
        Rare r = rare();
        if (r.external == null) {
            r.external = new ArrayDeque<>(4);
        }
        r.external.add(e);
        host.externalQueued(this);
    }

    void cancelSend(String sendId) {
        Object handle = rare == null || rare.pendingSends == null ? null : rare.pendingSends.remove(sendId);
        if (handle != null) {
            host.cancel(handle);
        }
    }

    @Override
    public String toString() {
        return "Session " + (rare == null ? "" : rare.sessionId) + " of " + chart.name() + " in " + Arrays.toString(activeStates().toArray());
    }
}
