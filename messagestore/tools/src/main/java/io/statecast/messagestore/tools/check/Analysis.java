package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.spec.ParameterType;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecStructure.StateInfo;
import io.statecast.messagestore.spec.SpecStructure.TransitionInfo;
import io.statecast.messagestore.tools.SourceText;
import io.statecast.messagestore.tools.SpecGraph;
import io.statecast.messagestore.tools.check.StateSpace.Edge;
import io.statecast.messagestore.tools.check.StateSpace.Node;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checks run on an explored {@link StateSpace}. Each finding carries a shortest trace (the
 * search is breadth-first, so the path recorded to a state is a shortest one).
 *
 * <ul>
 *   <li><b>leaking-state</b>: a reached state from which no explored path leads to an ended
 *       instance, and either every state reachable from it was explored (nothing lies beyond the
 *       depth bound) or the spec's own graph ({@link SpecGraph}, every transition assumed
 *       possible) has no ending step reachable from its configuration. Reported once per
 *       configuration, at the shallowest state.</li>
 *   <li><b>send-storm</b>: a cycle of timer expiries alone (no message needed) that sends or
 *       delivers a message on the way, where no timer stays pending, untouched, through the whole
 *       cycle. Such a timer — a maximum like the blueprint's {@code maxacktimeout}, set once and
 *       not re-armed by the cycle — expires after a fixed time, so retransmissions under it are
 *       bounded; without one the cycle repeats for ever. For each strongly connected set of states
 *       the shortest cycle through each emitting expiry is tried.</li>
 *   <li><b>unhandled-timer</b>: a pending timer expires in a reached configuration where neither
 *       its timer events nor the composites they trigger are handled.</li>
 *   <li><b>never-handled</b> and <b>composite-never-true</b>: only when the whole abstract state
 *       space was explored: a message event transitions wait for that never arrives where one
 *       handles it; a composite event transitions wait for that never became true.</li>
 *   <li><b>action-fails</b>: an action or query fails on a reachable run.</li>
 * </ul>
 */
final class Analysis {

    /** Cycles tried per strongly connected set, so a huge one cannot make the check slow. */
    private static final int CYCLES_PER_COMPONENT = 64;

    private final ServiceSpec spec;
    private final SpecGraph graph;
    private final StateSpace space;
    private final SourceText text;
    private final String file;
    private final List<CheckFinding> findings = new ArrayList<>();
    private int undecided;
    /** See {@link #ownOnly()}. */
    private BitSet own = new BitSet();

    Analysis(ServiceSpec spec, SpecGraph graph, StateSpace space, SourceText text, String file) {
        this.spec = spec;
        this.graph = graph;
        this.space = space;
        this.text = text;
        this.file = file;
    }

    /**
     * The explored states only the node's own instance reaches (after the {@code <Start>} input,
     * {@link Input.Deploy}), never an instance a message created: that instance lives as long as
     * its service is deployed, so neither its never ending nor its periodic sends are findings.
     */
    private BitSet ownOnly() {
        BitSet byMessages = new BitSet();
        ArrayDeque<Node> todo = new ArrayDeque<>();
        byMessages.set(space.start.id);
        todo.add(space.start);
        while (!todo.isEmpty()) {
            for (Edge e : todo.poll().out) {
                if (!(e.input() instanceof Input.Deploy) && !byMessages.get(e.to().id)) {
                    byMessages.set(e.to().id);
                    todo.add(e.to());
                }
            }
        }
        BitSet own = new BitSet();
        own.set(0, space.nodes.size());
        own.andNot(byMessages);
        return own;
    }

    /** Runs every check. */
    List<CheckFinding> run() {
        own = ownOnly();
        leaks();
        storms();
        unhandledTimers();
        if (space.complete()) {
            neverHandled();
        }
        failures();
        return findings;
    }

    /** Reached states that reach no end within the explored part but might beyond it. */
    int undecided() {
        return undecided;
    }

    // ------------------------------------------------------------------ leaks

    private void leaks() {
        int n = space.nodes.size();
        List<List<Node>> reverse = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            reverse.add(new ArrayList<>(2));
        }
        for (Node node : space.nodes) {
            for (Edge e : node.out) {
                reverse.get(e.to().id).add(node);
            }
        }
        BitSet canEnd = backwards(space.nodes.stream().filter(Node::ended).toList(), reverse);
        BitSet mayLeaveExplored = backwards(space.nodes.stream().filter(x -> !x.ended() && !x.expanded).toList(),
                reverse);
        Map<String, Boolean> staticEnds = new HashMap<>();
        Set<List<String>> reported = new HashSet<>();
        boolean startLeaks = false; // then every state leaks: one finding says it
        for (Node node : space.nodes) {
            if (node.ended() || canEnd.get(node.id) || own.get(node.id)) {
                continue;
            }
            boolean proven = !mayLeaveExplored.get(node.id)
                    || !staticEnds.computeIfAbsent(String.join(",", node.snapshot.configuration()),
                            k -> staticallyCanEnd(node.snapshot.configuration()));
            if (!proven) {
                undecided++;
                continue;
            }
            if (!reported.add(node.snapshot.configuration()) || startLeaks) {
                continue;
            }
            startLeaks = node == space.start;
            String states = node.snapshot.describeStates();
            String message;
            if (node == space.start) {
                message = "no run of this spec ever ends its instance: from the initial state " + states
                        + " no sequence of inputs leads to a terminate or a top-level <final>, so every instance "
                        + "stays in memory for good";
            } else if (stuck(node)) {
                message = "state " + states + " is stuck: no input leads out of it and no timer is pending, "
                        + "so the instance never ends (reached by the trace below)";
            } else {
                message = "state " + states + " leaks: after the trace below no sequence of inputs leads to a "
                        + "terminate or a top-level <final>, so the instance never ends";
            }
            List<String> config = node.snapshot.configuration();
            StateInfo s = config.isEmpty() ? null : graph.state(config.get(0));
            int line = s == null ? 0 : s.line();
            findings.add(CheckFinding.of(CheckRule.LEAKING_STATE, file, line,
                    s == null ? 0 : text.column(line, element(s)), message, trace(node.path(), -1)));
        }
    }

    private static BitSet backwards(List<Node> from, List<List<Node>> reverse) {
        BitSet seen = new BitSet();
        ArrayDeque<Node> todo = new ArrayDeque<>();
        for (Node n : from) {
            seen.set(n.id);
            todo.add(n);
        }
        while (!todo.isEmpty()) {
            for (Node p : reverse.get(todo.poll().id)) {
                if (!seen.get(p.id)) {
                    seen.set(p.id);
                    todo.add(p);
                }
            }
        }
        return seen;
    }

    /** Whether the spec's graph has an ending step reachable from these states. */
    private boolean staticallyCanEnd(List<String> configuration) {
        for (String s : graph.reachableFrom(configuration)) {
            for (SpecGraph.Step step : graph.stepsFrom(s)) {
                if (step.ends()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean stuck(Node node) {
        if (!node.expanded || !node.snapshot.timers().isEmpty()) {
            return false;
        }
        for (Edge e : node.out) {
            if (!e.to().snapshot.configuration().equals(node.snapshot.configuration())
                    || !e.to().snapshot.timers().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ storms

    private void storms() {
        List<List<Edge>> timerOut = new ArrayList<>(space.nodes.size());
        for (Node node : space.nodes) {
            List<Edge> es = new ArrayList<>(1);
            for (Edge e : node.out) {
                if (e.input() instanceof Input.Expiry && !e.to().ended()) {
                    es.add(e);
                }
            }
            timerOut.add(es);
        }
        int[] component = components(timerOut);
        Map<Integer, List<Edge>> emittingByComponent = new LinkedHashMap<>();
        for (Node node : space.nodes) {
            for (Edge e : timerOut.get(node.id)) {
                if (component[node.id] == component[e.to().id] && e.outcome().emits()) {
                    emittingByComponent.computeIfAbsent(component[node.id], k -> new ArrayList<>()).add(e);
                }
            }
        }
        Set<String> reported = new HashSet<>();
        for (List<Edge> candidates : emittingByComponent.values()) {
            int tried = 0;
            for (Edge e : candidates) {
                if (tried++ == CYCLES_PER_COMPONENT) {
                    break;
                }
                List<Edge> cycle = shortestCycle(e, timerOut, component);
                if (cycle != null && boundingTimer(cycle) < 0 && !periodicOwnLoop(cycle)) {
                    if (reported.add(stormKey(cycle))) {
                        reportStorm(cycle);
                    }
                    break;
                }
            }
        }
    }

    /**
     * A cycle of the node's own instance whose every expiry waited for a timer set with a positive
     * delay: a periodic loop (heartbeats), the purpose of a {@code <Start>} service, paced by its
     * timers. A zero-delay loop there is still a storm.
     */
    private boolean periodicOwnLoop(List<Edge> cycle) {
        for (Edge e : cycle) {
            if (!own.get(e.from().id) || !(e.input() instanceof Input.Expiry x)) {
                return false;
            }
            Snapshot.PendingTimer t = e.from().snapshot.timers().get(x.timerId());
            if (t == null || t.delay() <= 0) {
                return false;
            }
        }
        return true;
    }

    /** The configurations a cycle passes through and the lines of what it emits: one finding each. */
    private static String stormKey(List<Edge> cycle) {
        Set<String> parts = new TreeSet<>();
        for (Edge e : cycle) {
            parts.add(e.from().snapshot.describeStates());
            for (Outcome.Call c : e.outcome().calls()) {
                if (c.emits()) {
                    parts.add("line " + c.line());
                }
            }
        }
        return parts.toString();
    }

    /** The cycle {@code e} then a shortest path of timer edges back to its source, inside its component. */
    private static List<Edge> shortestCycle(Edge e, List<List<Edge>> timerOut, int[] component) {
        Node target = e.from();
        Map<Node, Edge> via = new HashMap<>();
        ArrayDeque<Node> todo = new ArrayDeque<>();
        todo.add(e.to());
        via.put(e.to(), null);
        while (!todo.isEmpty()) {
            Node n = todo.poll();
            if (n == target) {
                List<Edge> back = new ArrayList<>();
                for (Edge x = via.get(n); x != null; x = via.get(x.from())) {
                    back.add(0, x);
                }
                List<Edge> cycle = new ArrayList<>();
                cycle.add(e);
                cycle.addAll(back);
                return cycle;
            }
            for (Edge x : timerOut.get(n.id)) {
                if (component[x.to().id] == component[target.id] && !via.containsKey(x.to())) {
                    via.put(x.to(), x);
                    todo.add(x.to());
                }
            }
        }
        return null;
    }

    /**
     * A timer pending in every state of the cycle that no step of the cycle sets, cancels or
     * consumes; −1 when there is none.
     */
    private static int boundingTimer(List<Edge> cycle) {
        Set<Integer> candidates = new TreeSet<>(cycle.get(0).from().snapshot.timers().keySet());
        for (Edge e : cycle) {
            candidates.retainAll(e.from().snapshot.timers().keySet());
            if (e.input() instanceof Input.Expiry x) {
                candidates.remove(x.timerId());
            }
            for (Outcome.Call c : e.outcome().calls()) {
                if (c.timerId() >= 0) {
                    candidates.remove(c.timerId());
                }
            }
        }
        return candidates.isEmpty() ? -1 : candidates.iterator().next();
    }

    private void reportStorm(List<Edge> cycle) {
        Outcome.Call first = null;
        Set<String> emitted = new TreeSet<>();
        Set<String> expiries = new TreeSet<>();
        for (Edge e : cycle) {
            expiries.add(String.valueOf(((Input.Expiry) e.input()).timerId()));
            for (Outcome.Call c : e.outcome().calls()) {
                if (c.emits()) {
                    emitted.add(c.primitive().specName() + " (line " + c.line() + ")");
                    if (first == null) {
                        first = c;
                    }
                }
            }
        }
        List<Edge> path = new ArrayList<>(cycle.get(0).from().path());
        int cycleStart = path.size() + 1;
        path.addAll(cycle);
        String states = cycle.get(0).from().snapshot.describeStates();
        String message = "send storm: in " + states + " the expiry of timer" + (expiries.size() == 1 ? " " : "s ")
                + String.join(", ", expiries) + " alone repeats for ever, calling " + String.join(", ", emitted)
                + " every round with no new input; no pending timer bounds the cycle (a maximum timer set once and "
                + "not re-armed, whose expiry leaves it, like the blueprint's maxacktimeout, would)";
        findings.add(CheckFinding.of(CheckRule.SEND_STORM, file, first.line(), text.column(first.line(), "create"),
                message, trace(path, cycleStart)));
    }

    /** Strongly connected components of the timer edges (iterative Tarjan). */
    private int[] components(List<List<Edge>> out) {
        int n = space.nodes.size();
        int[] index = new int[n];
        int[] low = new int[n];
        int[] comp = new int[n];
        int[] edgePos = new int[n];
        boolean[] onStack = new boolean[n];
        java.util.Arrays.fill(index, -1);
        int[] stack = new int[n];
        int sp = 0;
        int[] call = new int[n];
        int next = 0;
        int comps = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] >= 0) {
                continue;
            }
            int cp = 0;
            call[cp++] = root;
            index[root] = low[root] = next++;
            stack[sp++] = root;
            onStack[root] = true;
            while (cp > 0) {
                int v = call[cp - 1];
                List<Edge> es = out.get(v);
                if (edgePos[v] < es.size()) {
                    int w = es.get(edgePos[v]++).to().id;
                    if (index[w] < 0) {
                        index[w] = low[w] = next++;
                        stack[sp++] = w;
                        onStack[w] = true;
                        call[cp++] = w;
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                    continue;
                }
                cp--;
                if (cp > 0) {
                    int parent = call[cp - 1];
                    low[parent] = Math.min(low[parent], low[v]);
                }
                if (low[v] == index[v]) {
                    int w;
                    do {
                        w = stack[--sp];
                        onStack[w] = false;
                        comp[w] = comps;
                    } while (w != v);
                    comps++;
                }
            }
        }
        return comp;
    }

    // ------------------------------------------------------------------ timers, events, failures

    private void unhandledTimers() {
        Set<Integer> reported = new HashSet<>();
        for (Node node : space.nodes) {
            for (Edge e : node.out) {
                if (!(e.input() instanceof Input.Expiry x) || e.outcome().handled() || reported.contains(x.timerId())) {
                    continue;
                }
                reported.add(x.timerId());
                Snapshot.PendingTimer t = node.snapshot.timers().get(x.timerId());
                List<String> names = new ArrayList<>();
                for (TimerEventDefinition d : spec.matchTimer(x.timerId())) {
                    names.add(d.name());
                }
                String events = names.isEmpty() ? "no timer event" : String.join(", ", names);
                List<Edge> path = new ArrayList<>(node.path());
                path.add(e);
                int line = t == null ? 0 : t.line();
                String why = waitsForComposite(node.snapshot.configuration(), names)
                        ? ", where only a composite event it triggers is waited for, and that is false then"
                        : ", where no transition reacts to it";
                findings.add(CheckFinding.of(CheckRule.UNHANDLED_TIMER, file, line, text.column(line, "create"),
                        "timer " + x.timerId() + " (" + events + ") can expire in " + node.snapshot.describeStates()
                                + why + ": the expiry is silently lost", trace(path, -1)));
            }
        }
    }

    /** Whether a composite event triggered by one of {@code events} is handled in the configuration. */
    private boolean waitsForComposite(List<String> configuration, List<String> events) {
        for (String ev : events) {
            for (CompositeEventDefinition c : spec.compositesTriggeredBy(ev)) {
                for (String state : configuration) {
                    if (graph.handles(state, c.name())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private void neverHandled() {
        Set<String> handled = new HashSet<>();
        Set<String> firedAtAll = new HashSet<>();
        for (Node node : space.nodes) {
            for (Edge e : node.out) {
                for (Outcome.Fired f : e.outcome().fired()) {
                    firedAtAll.add(f.event());
                    if (f.handled()) {
                        handled.add(f.event());
                    }
                }
            }
        }
        Map<String, List<Integer>> waitedFor = new LinkedHashMap<>();
        for (TransitionInfo t : spec.structure().transitions()) {
            waitedFor.computeIfAbsent(t.event(), k -> new ArrayList<>()).add(t.line());
        }
        for (MessageEventDefinition d : spec.messageEvents()) {
            List<Integer> lines = waitedFor.get(d.name());
            if (lines != null && !handled.contains(d.name())) {
                findings.add(CheckFinding.of(CheckRule.NEVER_HANDLED, file, d.line(), text.column(d.line(), "Event"),
                        "message event " + d.name() + " is waited for by the transitions at line" + plural(lines)
                                + ", but in no reachable state does it arrive where one of them is active",
                        null));
            }
        }
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            List<Integer> lines = waitedFor.get(c.name());
            if (lines != null && !firedAtAll.contains(c.name())) {
                findings.add(CheckFinding.of(CheckRule.COMPOSITE_NEVER_TRUE, file, c.line(),
                        text.column(c.line(), "Event"), "composite event " + c.name() + " never becomes true in a reachable "
                                + "state that waits for it, so the transitions at line" + plural(lines)
                                + " are never taken (" + neverTrueHint(c) + ")",
                        null));
            }
        }
    }

    /**
     * Why a composite may never have become true. A query that counts up to an integer parameter
     * larger than the longest explored path cannot become true within the bound: the finding is
     * then a limit of the check, and the hint says which parameter to lower for it.
     */
    private String neverTrueHint(CompositeEventDefinition c) {
        String q = c.query().text();
        int longest = 0;
        for (Node n : space.nodes) {
            longest = Math.max(longest, n.depth);
        }
        if (q.contains("count(") || q.contains("sum(")) {
            for (String name : spec.parameters().names()) {
                if (spec.parameters().get(name).type() == ParameterType.INTEGER && q.contains("$" + name)
                        && spec.parameters().longValue(name) >= longest) {
                    return "it counts up to parameter " + name + " = " + spec.parameters().value(name)
                            + ", beyond what the bounded check reaches (its longest path has " + longest
                            + " inputs): a limit of the check, not necessarily of the spec; check with a smaller "
                            + "one (-P " + name + "=…) or a greater --depth";
                }
            }
        }
        return "if it counts identical inputs, try a higher --history-cap";
    }

    private static String plural(List<Integer> lines) {
        StringBuilder sb = new StringBuilder(lines.size() == 1 ? " " : "s ");
        for (int i = 0; i < lines.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(lines.get(i));
        }
        return sb.toString();
    }

    private void failures() {
        Set<Integer> reported = new HashSet<>();
        List<Edge> start = List.of();
        for (Outcome.Failure f : space.startOutcome.failures()) {
            if (reported.add(f.line())) {
                findings.add(CheckFinding.of(CheckRule.ACTION_FAILS, file, f.line(), text.column(f.line(), "create"),
                        f.message(), trace(start, -1)));
            }
        }
        for (Node node : space.nodes) {
            for (Edge e : node.out) {
                for (Outcome.Failure f : e.outcome().failures()) {
                    if (reported.add(f.line())) {
                        List<Edge> path = new ArrayList<>(node.path());
                        path.add(e);
                        findings.add(CheckFinding.of(CheckRule.ACTION_FAILS, file, f.line(),
                                text.column(f.line(), "create"), f.message() + " (after the trace below)",
                                trace(path, -1)));
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ traces

    private Trace trace(List<Edge> path, int cycleStart) {
        List<Trace.Step> steps = new ArrayList<>(path.size() + 1);
        steps.add(step("start", space.startOutcome));
        for (Edge e : path) {
            steps.add(step(e.input().label(), e.outcome()));
        }
        return new Trace(steps, cycleStart);
    }

    private static Trace.Step step(String input, Outcome o) {
        List<String> events = new ArrayList<>();
        for (Outcome.Fired f : o.fired()) {
            events.add(f.handled() ? f.event() : f.event() + " (ignored)");
        }
        List<String> calls = new ArrayList<>();
        for (Outcome.Call c : o.calls()) {
            calls.add(c.toString());
        }
        return new Trace.Step(input, events, calls, o.after().describeStates(),
                new ArrayList<>(o.after().timers().keySet()));
    }

    private static String element(StateInfo s) {
        return switch (s.kind()) {
            case STATE -> "state";
            case PARALLEL -> "parallel";
            case FINAL -> "final";
        };
    }
}
