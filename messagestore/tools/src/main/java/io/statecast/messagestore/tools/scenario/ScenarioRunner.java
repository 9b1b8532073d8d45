package io.statecast.messagestore.tools.scenario;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.action.ActionRecord;
import io.statecast.messagestore.event.AttributeValues;
import io.statecast.messagestore.event.HistoryEntry;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.NodeSnapshot;
import io.statecast.messagestore.event.EvaluationException;
import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.StepAdmission;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.ActionField;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.Origin;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.FieldsExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.PayloadExtension;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link Scenario} against a spec: one {@link ServiceInstance} — the same class a node
 * runs, on the same loaded {@link ServiceSpec} — on a {@link ScenarioNode} with a virtual clock.
 * Inputs go where a shard would send them: a message that matches no event creates no instance
 * and is dropped; the first that matches creates the instance (its entry actions belong to that
 * step); messages for another instance key, or after the instance ended, are dropped and noted.
 *
 * <p>Every step runs even after one fails, so one report shows every difference. Instance limits
 * are a node's defaults ({@link InstanceLimits#DEFAULTS}: history size, primitive rate, timers),
 * so a scenario sees what a node would do.
 */
public final class ScenarioRunner {

    private final ScenarioLimits limits;

    /** A runner with {@link ScenarioLimits#DEFAULTS}. */
    public ScenarioRunner() {
        this(ScenarioLimits.DEFAULTS);
    }

    /** A runner bounded by {@code limits}. */
    public ScenarioRunner(ScenarioLimits limits) {
        this.limits = limits;
    }

    /** Runs {@code scenario} against {@code spec} (with the scenario's parameter overrides). */
    public ScenarioResult run(ServiceSpec spec, Scenario scenario) {
        ServiceSpec configured = spec;
        if (!scenario.parameters().isEmpty()) {
            try {
                configured = spec.withParameters(scenario.parameters());
            } catch (SpecException e) {
                return new ScenarioResult(scenario, List.of(), "parameters: " + e.getMessage());
            }
        }
        return new Run(configured, scenario).run();
    }

    /** The state of one run. */
    private final class Run {
        private final ServiceSpec spec;
        private final Scenario scenario;
        private final ServiceRuntime runtime;
        private final ScenarioNode node;
        private ServiceInstance instance;
        private int recordsSeen;
        private long callsMade;

        Run(ServiceSpec spec, Scenario scenario) {
            this.spec = spec;
            this.scenario = scenario;
            this.runtime = new ServiceRuntime(spec);
            InstanceLimits d = InstanceLimits.DEFAULTS;
            // keep every action record of the run (the default keeps 32): calls are read from them
            InstanceLimits l = new InstanceLimits(d.maxLiveInstances(), d.historyEntries(), limits.maxCalls() + 1,
                    d.timersPerInstance(), d.primitiveBurst(), d.primitiveRatePerSecond(), d.idleTimeoutMs(),
                    d.tombstones(), d.tombstoneTtlMs());
            this.node = new ScenarioNode(scenario.node(), l);
        }

        ScenarioResult run() {
            List<StepResult> results = new ArrayList<>();
            for (Step s : scenario.steps()) {
                results.add(step(s));
                if (callsMade > limits.maxCalls()) {
                    break;
                }
            }
            return new ScenarioResult(scenario, results, null);
        }

        private StepResult step(Step s) {
            List<String> notes = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            int effectsBefore = node.effects.size();
            long failuresBefore = node.clock.taskFailures();
            Step.Input input = s.input();
            if (input instanceof Step.Receive r) {
                for (MessageInput m : r.messages()) {
                    receive(m, notes, failures);
                }
            } else if (input instanceof Step.Advance a) {
                advanceTo(node.clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(a.millis()), effectsBefore, failures);
            } else if (input instanceof Step.Fire f) {
                Long due = instance == null || instance.ended() != null ? null : node.due.get(f.timerId());
                if (due == null) {
                    failures.add("fire: timer " + ScenarioReader.timerName(spec, f.timerId()) + " is not set");
                } else {
                    advanceTo(due, effectsBefore, failures);
                }
            } else if (input instanceof Step.Topology t) {
                node.topology(t.node());
            } else if (input instanceof Step.Deploy) {
                deploy(notes, failures);
            }
            if (node.clock.taskFailures() > failuresBefore) {
                failures.add("a timer expiry failed in the harness: " + node.clock.lastFailure());
            }
            if (node.quarantined != null) {
                notes.add("the service was quarantined: " + node.quarantined);
            }
            List<ActualCall> calls = calls(effectsBefore);
            if (callsMade > limits.maxCalls()) {
                failures.add("more than " + limits.maxCalls() + " primitive calls: the scenario stops here");
            }
            Set<String> state = instance == null ? Set.of() : instance.states();
            boolean terminated = instance != null && instance.ended() != null;
            check(s, calls, state, terminated, failures);
            return new StepResult(s, node.clock.currentTimeMillis(), calls, notes, state, terminated, failures);
        }

        /**
         * Moves the clock to {@code target}, firing what is due, but stops a spec whose timers keep
         * it calling primitives (a 1 ms timer loop stays under the primitive rate limit and would
         * otherwise run for every millisecond of the advance).
         */
        private void advanceTo(long target, int effectsBefore, List<String> failures) {
            if (node.clock.runUntil(() -> node.effects.size() - effectsBefore > limits.maxCalls(), target)) {
                callsMade = Long.MAX_VALUE / 2;
                failures.add("the spec made more than " + limits.maxCalls() + " primitive calls in one step; stopped at t="
                        + node.clock.currentTimeMillis() + "ms");
            }
        }

        private void receive(MessageInput in, List<String> notes, List<String> failures) {
            OverlayMessage m;
            try {
                m = build(in);
            } catch (IllegalArgumentException e) {
                failures.add("line " + in.line() + ": cannot build the message: " + e.getMessage());
                return;
            }
            String what = "message (line " + in.line() + ")";
            if (m.fsm().serviceId() != spec.service().serviceId()) {
                notes.add(what + " is for ServiceID " + m.fsm().serviceId() + ", not this service's "
                        + spec.service().serviceId() + ": not for this spec");
                return;
            }
            if (instance != null && instance.key().address() != null && runtime.scope().perMessage() && !Origin.present(m)
                    && m.fsm().messageId() == instance.key().messageId()) {
                // a scenario follows one message: a reply to it names its origin, as a node's does
                m = Origin.attach(m, instance.key().address());
            }
            InstanceKey key;
            try {
                key = runtime.keyOf(m, node.localAddress(), node.evaluator());
            } catch (EvaluationException e) {
                failures.add(what + ": the ScopeKey ran away: " + e.getMessage());
                return;
            }
            if (key == null) {
                notes.add(what + ": the ScopeKey gives it no key (see the log): dropped");
                return;
            }
            if (instance != null && !instance.key().equals(key)) {
                notes.add(what + " belongs to another instance (" + key + "; this scenario drives " + instance.key()
                        + "): dropped");
                return;
            }
            if (instance != null && instance.ended() != null) {
                // message scope: the node's tombstone drops it (for tombstoneTtlMs); flow scope: a
                // node would start a new instance, which is another scenario
                notes.add(what + " arrived after the instance ended: dropped" + (!key.scope().perMessage()
                        ? " (a node would start a new flow instance; a scenario drives one)" : ""));
                return;
            }
            List<MessageEventDefinition> matched = spec.matchMessage(m, node.localAddress());
            if (matched.isEmpty()) {
                notes.add(what + " matches no event: dropped" + (instance == null ? ", no instance created" : ""));
                return;
            }
            List<String> names = new ArrayList<>();
            for (MessageEventDefinition d : matched) {
                names.add(d.name());
            }
            if (instance == null && !spec.createsInstance(m, matched)) {
                notes.add(what + " fires " + String.join(", ", names) + ", none of which creates an instance "
                        + "(<CreatedBy>, or a control message under a message scope): dropped");
                return;
            }
            if (instance == null) {
                instance = new ServiceInstance(key, runtime, node);
                notes.add("instance " + key + " created");
                instance.start();
                if (instance.ended() != null) {
                    return;
                }
            }
            if (instance.admission(false) == StepAdmission.REFUSE) {
                notes.add(what + " refused: the instance's primitive budget is spent (THROTTLED): dropped");
                return;
            }
            notes.add(what + " fires " + String.join(", ", names));
            instance.onMessage(m, matched);
        }

        /** The store's start of the node's own instance ({@code <Start>}). */
        private void deploy(List<String> notes, List<String> failures) {
            if (instance != null) {
                failures.add("deploy: an instance exists already (the store starts the node's own instance when the "
                        + "service is deployed, before anything else)");
                return;
            }
            InstanceKey key = InstanceKey.ofNode(runtime.scope(), spec.service().serviceId(), node.localAddress());
            instance = new ServiceInstance(key, runtime, node);
            notes.add("instance " + key + " started on deployment");
            instance.start();
            if (instance.ended() == null) {
                notes.add("fires " + spec.service().start());
                instance.onDeploy();
            }
        }

        private OverlayMessage build(MessageInput in) {
            byte type = in.type() != null ? in.type() : FsmExtension.PAYLOAD_TYPE;
            long id = in.messageId() != null ? in.messageId() : 1;
            int serviceId = in.serviceId() != null ? in.serviceId() : spec.service().serviceId();
            DeliveryMode mode = in.mode() != null ? in.mode()
                    : in.destination() != null ? DeliveryMode.UNICAST : DeliveryMode.MULTICAST;
            List<Extension> ext = new ArrayList<>(3);
            ext.add(new FsmExtension(serviceId, type, id));
            if (in.fields() != null && !in.fields().isEmpty()) {
                ext.add(new FieldsExtension(in.fields()));
            }
            byte[] payload = in.payload();
            if (payload == null && type == FsmExtension.PAYLOAD_TYPE) {
                payload = new byte[0];
            }
            if (payload != null) {
                ext.add(new PayloadExtension(payload));
            }
            return new OverlayMessage(mode, in.hopLimit() != null ? in.hopLimit() : 250, in.source(),
                    in.destination(), in.previousHop() != null ? in.previousHop() : in.source(), in.root(), ext);
        }

        // -------------------------------------------------------------- calls

        /** The calls made since the last step: the instance's new action records, matched to the effects seen. */
        private List<ActualCall> calls(int effectsBefore) {
            if (instance == null) {
                return List.of();
            }
            List<ActionRecord> all = instance.actionHistory();
            int first = Math.min(recordsSeen, all.size());
            List<ActionRecord> fresh = all.subList(first, all.size());
            recordsSeen = all.size();
            callsMade += fresh.size();
            List<Effect> effects = node.effects.subList(effectsBefore, node.effects.size());
            boolean[] used = new boolean[effects.size()];
            List<NodeSnapshot> nodes = lastNodeRecords(fresh.stream().filter(r -> r.primitive()
                    == Primitive.UPDATE_NODE_INFO && r.outcome() == ActionOutcome.EXECUTED).count());
            int nodeIndex = 0;
            List<ActualCall> out = new ArrayList<>(fresh.size());
            for (int index = 0; index < fresh.size(); index++) {
                ActionRecord r = fresh.get(index);
                Map<String, String> p = new LinkedHashMap<>();
                // forwardMessage and toApplication act once per selected message, the send
                // primitives once per selected destination: one call each
                List<OverlayMessage> messages = List.of();
                List<Map<String, String>> sends = List.of();
                boolean executed = r.outcome() == ActionOutcome.EXECUTED;
                switch (r.primitive()) {
                    case SEND_DATA_MESSAGE, SEND_CONTROL_MESSAGE -> {
                        if (executed) {
                            sends = takeSends(effects, used, first + index);
                        }
                    }
                    case FORWARD_MESSAGE, TO_APPLICATION -> {
                        if (executed) {
                            messages = takeMessages(effects, used, first + index);
                        }
                    }
                    case SET_TIMER -> {
                        if (executed && take(effects, used, Effect.Schedule.class) instanceof Effect.Schedule t) {
                            p.put("timer", ScenarioReader.timerName(spec, t.timerId()));
                            p.put("delay", Long.toString(t.delayMillis()));
                        }
                    }
                    case CANCEL_TIMER -> {
                        boolean wasSet = executed && r.detail().isEmpty();
                        Integer id = literalTimer(r.line());
                        if (wasSet && take(effects, used, Effect.Cancel.class) instanceof Effect.Cancel c) {
                            id = c.timerId();
                        }
                        p.put("timer", id == null ? "?" : ScenarioReader.timerName(spec, id));
                        if (executed) {
                            p.put("wasSet", Boolean.toString(wasSet));
                        }
                    }
                    case UPDATE_NODE_INFO -> {
                        if (executed && nodeIndex < nodes.size()) {
                            NodeSnapshot n = nodes.get(nodeIndex++);
                            p.put("parent", n.parent() == null ? "none" : AttributeValues.text(n.parent()));
                            p.put("children", ScenarioReader.formatAddresses(n.children()));
                            p.put("neighbours", ScenarioReader.formatAddresses(n.neighbours()));
                        }
                    }
                    case TERMINATE -> {
                    }
                }
                p.put("at", Long.toString(r.timeMillis()));
                p.put("outcome", r.outcome().name().toLowerCase(Locale.ROOT));
                if (!r.detail().isEmpty() && !(r.primitive() == Primitive.CANCEL_TIMER && executed)) {
                    p.put("detail", r.detail());
                }
                if (messages.isEmpty() && sends.isEmpty()) {
                    out.add(new ActualCall(r.primitive().specName(), p));
                }
                for (Map<String, String> send : sends) {
                    send.putAll(p);
                    out.add(new ActualCall(r.primitive().specName(), send));
                }
                for (OverlayMessage m : messages) {
                    Map<String, String> one = new LinkedHashMap<>();
                    message(m, one);
                    one.putAll(p);
                    out.add(new ActualCall(r.primitive().specName(), one));
                }
            }
            return out;
        }

        /** The parameters of each message the action record with index {@code action} sent, in order. */
        private static List<Map<String, String>> takeSends(List<Effect> effects, boolean[] used, long action) {
            List<Map<String, String>> out = new ArrayList<>(1);
            for (int i = 0; i < effects.size(); i++) {
                Effect e = effects.get(i);
                Map<String, String> p = new LinkedHashMap<>();
                if (!used[i] && e instanceof Effect.SendData d && d.action() == action) {
                    p.put("id", Long.toString(d.messageId()));
                    route(d.route(), p);
                    p.put("payload", payload(d.payload()));
                    fields(d.fields(), p);
                } else if (!used[i] && e instanceof Effect.SendControl c && c.action() == action) {
                    p.put("type", Integer.toString(Byte.toUnsignedInt(c.type())));
                    p.put("id", Long.toString(c.messageId()));
                    route(c.route(), p);
                    fields(c.fields(), p);
                } else {
                    continue;
                }
                used[i] = true;
                out.add(p);
            }
            return out;
        }

        /** The messages the action record with index {@code action} forwarded or delivered, in order. */
        private static List<OverlayMessage> takeMessages(List<Effect> effects, boolean[] used, long action) {
            List<OverlayMessage> out = new ArrayList<>();
            for (int i = 0; i < effects.size(); i++) {
                Effect e = effects.get(i);
                if (!used[i] && e instanceof Effect.Forward f && f.action() == action) {
                    used[i] = true;
                    out.add(f.message());
                } else if (!used[i] && e instanceof Effect.ToApplication t && t.action() == action) {
                    used[i] = true;
                    out.add(t.message());
                }
            }
            return out;
        }

        /**
         * The snapshots of the {@code n} node records the step's {@code updateNodeInfo} calls wrote:
         * the last {@code n} in the history, since nothing else writes them.
         */
        private List<NodeSnapshot> lastNodeRecords(long n) {
            List<NodeSnapshot> all = new ArrayList<>();
            for (HistoryEntry e : instance.history().entries()) {
                if (e instanceof HistoryEntry.NodeRecord r) {
                    all.add(r.node());
                }
            }
            return all.subList((int) Math.max(0, all.size() - n), all.size());
        }

        private Integer literalTimer(int line) {
            for (ActionTemplate a : spec.actions()) {
                if (a.line() == line && a.primitive() == Primitive.CANCEL_TIMER) {
                    FieldValue v = a.valueOf(ActionField.TIMER_IDENTIFIER);
                    try {
                        if (v instanceof FieldValue.Literal l) {
                            return Integer.valueOf(l.text().strip());
                        }
                        if (v instanceof FieldValue.ParameterRef ref) {
                            return Integer.valueOf(spec.parameters().value(ref.name()));
                        }
                    } catch (NumberFormatException e) {
                        return null;
                    }
                }
            }
            return null;
        }

        private static Effect take(List<Effect> effects, boolean[] used, Class<? extends Effect> kind) {
            for (int i = 0; i < effects.size(); i++) {
                if (!used[i] && kind.isInstance(effects.get(i))) {
                    used[i] = true;
                    return effects.get(i);
                }
            }
            return null;
        }

        private static void route(Route r, Map<String, String> p) {
            p.put("mode", AttributeValues.name(r.mode()));
            if (r.destination() != null) {
                p.put("destination", AttributeValues.text(r.destination()));
            }
            if (r.root() != null) {
                p.put("root", AttributeValues.text(r.root()));
            }
            if (r.hopLimit() != Route.DEFAULT_HOP_LIMIT) {
                p.put("hopLimit", Integer.toString(r.hopLimit()));
            }
        }

        private static void message(OverlayMessage m, Map<String, String> p) {
            FsmExtension f = m.fsm();
            if (f != null) {
                p.put("type", Integer.toString(Byte.toUnsignedInt(f.messageType())));
                p.put("id", Long.toString(f.messageId()));
            }
            p.put("mode", AttributeValues.name(m.mode()));
            p.put("source", AttributeValues.text(m.source()));
            if (m.destination() != null) {
                p.put("destination", AttributeValues.text(m.destination()));
            }
            p.put("previousHop", AttributeValues.text(m.previousHop()));
            if (m.root() != null) {
                p.put("root", AttributeValues.text(m.root()));
            }
            p.put("hopLimit", Integer.toString(m.hopLimit()));
            if (m.payload() != null) {
                p.put("payload", payload(m.payload()));
            }
            fields(m.fields(), p);
        }

        /** Each field as a parameter {@code fields.NAME}, its value as {@link MessageField#text()} writes it. */
        private static void fields(MessageFields fields, Map<String, String> p) {
            for (Map.Entry<String, MessageField> f : fields.asMap().entrySet()) {
                p.put(ScenarioReader.FIELD_PARAM_PREFIX + f.getKey(), f.getValue().text());
            }
        }

        // -------------------------------------------------------------- checks

        private void check(Step s, List<ActualCall> calls, Set<String> state, boolean terminated,
                List<String> failures) {
            if (s.calls() != null) {
                List<ActualCall> compared = calls.stream().filter(c -> !s.ignore().contains(c.primitive())).toList();
                boolean same = compared.size() == s.calls().size();
                for (int i = 0; same && i < compared.size(); i++) {
                    same = compared.get(i).matches(s.calls().get(i));
                }
                if (!same) {
                    failures.add("calls differ:\n" + diff(s.calls(), compared));
                }
            }
            if (s.state() != null && !s.state().equals(state)) {
                failures.add("state: expected " + s.state() + ", actual " + (instance == null ? "(no instance)" : state));
            }
            if (s.terminated() != null && s.terminated() != terminated) {
                failures.add("terminated: expected " + s.terminated() + ", actual " + terminated
                        + (instance != null && instance.ended() != null ? " (" + instance.ended() + ")" : ""));
            }
            if (s.timers() != null) {
                Set<String> actual = new TreeSet<>();
                if (instance != null) {
                    for (int id : instance.timersSet()) {
                        actual.add(ScenarioReader.timerName(spec, id));
                    }
                }
                if (!new TreeSet<>(s.timers()).equals(actual)) {
                    failures.add("timers set: expected " + new TreeSet<>(s.timers()) + ", actual " + actual);
                }
            }
        }
    }

    /**
     * A line-by-line comparison: {@code =} matched, {@code -} expected but not made (or not as
     * written), {@code +} made but not expected. Matching is greedy in order, which is what a
     * reader checks by eye.
     */
    static String diff(List<ExpectedCall> expected, List<ActualCall> actual) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        int j = 0;
        while (i < expected.size() || j < actual.size()) {
            if (i < expected.size() && j < actual.size() && actual.get(j).matches(expected.get(i))) {
                b.append("    = ").append(actual.get(j)).append('\n');
                i++;
                j++;
                continue;
            }
            int found = -1;
            if (i < expected.size()) {
                for (int k = j + 1; k < actual.size(); k++) {
                    if (actual.get(k).matches(expected.get(i))) {
                        found = k;
                        break;
                    }
                }
            }
            if (found >= 0) {
                while (j < found) {
                    b.append("    + ").append(actual.get(j++)).append("   (not expected)\n");
                }
                continue;
            }
            if (i < expected.size()) {
                b.append("    - ").append(expected.get(i++)).append("   (expected, line ")
                        .append(expected.get(i - 1).line()).append(")\n");
            }
            if (j < actual.size() && (i >= expected.size() || !hasLaterMatch(expected, i, actual.get(j)))) {
                b.append("    + ").append(actual.get(j++)).append("   (not expected)\n");
            }
        }
        return b.toString().stripTrailing();
    }

    private static boolean hasLaterMatch(List<ExpectedCall> expected, int from, ActualCall a) {
        for (int k = from; k < expected.size(); k++) {
            if (a.matches(expected.get(k))) {
                return true;
            }
        }
        return false;
    }

    /** UTF-8 text when the bytes are printable text, else {@code base64:…}. */
    static String payload(byte[] bytes) {
        if (bytes == null) {
            return "";
        }
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            if (s.chars().noneMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\t')) {
                return s;
            }
        } catch (CharacterCodingException e) {
            // not text
        }
        return "base64:" + Base64.getEncoder().encodeToString(bytes);
    }
}
