package io.statecast.messagestore.tools.scenario;

import io.statecast.overlay.io.FileErrors;
import io.statecast.messagestore.event.AttributeValues;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.event.TimerFilter;
import io.statecast.messagestore.spec.ParameterType;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecStructure;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads scenario files strictly against the spec they test: unknown keys, values of the wrong
 * kind, unknown primitives, parameters, states and timer names are errors naming the field and
 * its line ({@code handshake/open.yaml:14:7: steps[2].expect[0].sendControlMessage.tpye: unknown
 * field (known: …)}). JSON ({@code .json}) or YAML ({@code .yaml}, {@code .yml}).
 */
public final class ScenarioReader {

    private static final Set<String> TOP = ordered("scenario", "node", "parameters", "defaults", "ignore", "steps");
    private static final Set<String> NODE = ordered("address", "parent", "children", "neighbours", "trees", "rtt");
    private static final Set<String> TREE = ordered("parent", "children");
    private static final Set<String> MESSAGE = ordered("type", "id", "source", "destination", "previousHop", "root",
            "mode", "hopLimit", "payload", "payloadBase64", "serviceId", "fields");
    /** The prefix of the parameter a message field is compared under: {@code fields.seq}. */
    static final String FIELD_PARAM_PREFIX = "fields.";
    private static final Set<String> INPUTS = ordered("receive", "advance", "fire", "topology", "deploy");
    private static final Set<String> STEP = ordered("note", "receive", "advance", "fire", "topology", "deploy", "expect",
            "ignore", "state", "terminated", "timers");
    private static final Set<String> OUTCOMES = ordered("executed", "failed", "discarded");
    private static final Pattern DURATION = Pattern.compile("([0-9]{1,12})(?:\\.([0-9]{1,3}))?\\s*(ms|s|m|h)?");

    /** The parameters each primitive's calls are described by (besides {@code at} and {@code outcome}). */
    static final Map<String, Set<String>> CALL_PARAMS = Map.of(
            "sendDataMessage", ordered("id", "mode", "destination", "root", "hopLimit", "payload", "fields"),
            "sendControlMessage", ordered("type", "id", "mode", "destination", "root", "hopLimit", "fields"),
            "forwardMessage", ordered("type", "id", "mode", "source", "destination", "previousHop", "root",
                    "hopLimit", "payload", "fields"),
            "toApplication", ordered("type", "id", "mode", "source", "destination", "previousHop", "root",
                    "hopLimit", "payload", "fields"),
            "setTimer", ordered("timer", "delay"),
            "cancelTimer", ordered("timer", "wasSet"),
            "terminate", ordered(),
            "updateNodeInfo", ordered("parent", "children", "neighbours"));

    private final ServiceSpec spec;
    private final ScenarioLimits limits;
    private LogicalAddress self = new TreeAddress(1);

    private ScenarioReader(ServiceSpec spec, ScenarioLimits limits) {
        this.spec = spec;
        this.limits = limits;
    }

    /** Reads {@code file} (at most {@link ScenarioLimits#maxBytes()} bytes) for {@code spec}. */
    public static Scenario read(Path file, ServiceSpec spec) throws ScenarioException {
        return read(file, spec, ScenarioLimits.DEFAULTS);
    }

    /** Reads {@code file} for {@code spec} within {@code limits}. */
    public static Scenario read(Path file, ServiceSpec spec, ScenarioLimits limits) throws ScenarioException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean json = name.endsWith(".json");
        if (!json && !name.endsWith(".yaml") && !name.endsWith(".yml")) {
            throw new ScenarioException(file + ": scenario files end in .yaml, .yml or .json", 0);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(limits.maxBytes() + 1);
        } catch (IOException e) {
            throw new ScenarioException(file + ": cannot read: " + FileErrors.describe(e), e);
        }
        if (bytes.length > limits.maxBytes()) {
            throw new ScenarioException(file + ": larger than " + limits.maxBytes() + " bytes", 0);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ScenarioException(file + ": not UTF-8", 0);
        }
        return read(text, json, file.toString(), spec, limits);
    }

    /** Reads a scenario from {@code text}; {@code source} names it in messages. */
    public static Scenario read(String text, boolean json, String source, ServiceSpec spec, ScenarioLimits limits)
            throws ScenarioException {
        DocNode root = TreeReader.read(text, json, source, limits);
        return new ScenarioReader(spec, limits).scenario(root);
    }

    // ------------------------------------------------------------------ document

    private Scenario scenario(DocNode root) throws ScenarioException {
        DocNode.Mapping m = mapping(root, TOP);
        String name = text(required(m, "scenario"));
        NodeSetup node = m.entries().containsKey("node") ? node(m.entries().get("node"), true)
                : new NodeSetup(self, null, List.of(), Map.of(), null, Map.of());
        Map<String, String> parameters = new LinkedHashMap<>();
        if (m.entries().containsKey("parameters")) {
            DocNode.Mapping p = mapping(m.entries().get("parameters"), null);
            for (Map.Entry<String, DocNode> e : p.entries().entrySet()) {
                if (!spec.parameters().contains(e.getKey())) {
                    throw e.getValue().where().error("the spec declares no parameter " + e.getKey()
                            + " (declared: " + String.join(", ", spec.parameters().names()) + ")");
                }
                boolean duration = spec.parameters().get(e.getKey()).type() == ParameterType.DURATION;
                parameters.put(e.getKey(), duration ? Long.toString(duration(e.getValue())) : text(e.getValue()));
            }
        }
        MessageInput defaults = m.entries().containsKey("defaults") ? message(m.entries().get("defaults")) : null;
        Set<String> ignore = m.entries().containsKey("ignore") ? primitives(m.entries().get("ignore")) : Set.of();
        DocNode stepsNode = required(m, "steps");
        List<DocNode> items = sequence(stepsNode).items();
        if (items.isEmpty()) {
            throw stepsNode.where().error("a scenario needs at least one step");
        }
        if (items.size() > limits.maxSteps()) {
            throw stepsNode.where().error("more than " + limits.maxSteps() + " steps");
        }
        List<Step> steps = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            steps.add(step(i, items.get(i), defaults, ignore));
        }
        return new Scenario(root.where().source(), name, node, parameters, ignore, steps);
    }

    private NodeSetup node(DocNode n, boolean top) throws ScenarioException {
        DocNode.Mapping m = mapping(n, NODE);
        if (top) {
            self = m.entries().containsKey("address") ? address(m.entries().get("address"), false) : self;
        } else if (m.entries().containsKey("address")) {
            throw m.entries().get("address").where().error("a topology change cannot change the node's address");
        }
        LogicalAddress parent = m.entries().containsKey("parent") ? optionalAddress(m.entries().get("parent")) : null;
        List<LogicalAddress> children = m.entries().containsKey("children")
                ? addresses(m.entries().get("children")) : List.of();
        List<LogicalAddress> neighbours = m.entries().containsKey("neighbours")
                ? addresses(m.entries().get("neighbours")) : null;
        Map<LogicalAddress, NodeSetup.Tree> trees = new LinkedHashMap<>();
        if (m.entries().containsKey("trees")) {
            for (Map.Entry<String, DocNode> e : mapping(m.entries().get("trees"), null).entries().entrySet()) {
                LogicalAddress treeRoot = address(new DocNode.Scalar(e.getValue().where(), e.getKey()), true);
                DocNode.Mapping t = mapping(e.getValue(), TREE);
                trees.put(treeRoot, new NodeSetup.Tree(
                        t.entries().containsKey("parent") ? optionalAddress(t.entries().get("parent")) : null,
                        t.entries().containsKey("children") ? addresses(t.entries().get("children")) : List.of()));
            }
        }
        Map<LogicalAddress, Double> rtt = new LinkedHashMap<>();
        if (m.entries().containsKey("rtt")) {
            for (Map.Entry<String, DocNode> e : mapping(m.entries().get("rtt"), null).entries().entrySet()) {
                LogicalAddress neighbour = address(new DocNode.Scalar(e.getValue().where(), e.getKey()), true);
                if (!(e.getValue() instanceof DocNode.Scalar v)) {
                    throw e.getValue().where().error("rtt of " + e.getKey() + " must be a number of ms");
                }
                double ms;
                try {
                    ms = Double.parseDouble(v.text());
                } catch (NumberFormatException bad) {
                    ms = -1;
                }
                if (!(ms >= 0 && ms <= 60_000)) {
                    throw v.where().error("rtt of " + e.getKey() + " must be 0..60000 ms, got '" + v.text() + "'");
                }
                rtt.put(neighbour, ms);
            }
        }
        return new NodeSetup(self, parent, children, trees, neighbours, rtt);
    }

    private Step step(int index, DocNode n, MessageInput defaults, Set<String> scenarioIgnore) throws ScenarioException {
        DocNode.Mapping m = mapping(n, STEP);
        Map<String, DocNode> e = m.entries();
        String input = null;
        for (String k : INPUTS) {
            if (e.containsKey(k)) {
                if (input != null) {
                    throw e.get(k).where().error("a step has one input: " + input + " or " + k + ", not both");
                }
                input = k;
            }
        }
        Step.Input in;
        if (input == null) {
            in = new Step.Check();
        } else {
            DocNode v = e.get(input);
            in = switch (input) {
                case "receive" -> receive(v, defaults);
                case "advance" -> {
                    long ms = duration(v);
                    if (ms > limits.maxAdvanceMillis()) {
                        throw v.where().error("advances more than " + limits.maxAdvanceMillis() + " ms");
                    }
                    yield new Step.Advance(ms);
                }
                case "fire" -> new Step.Fire(timerId(v), canonicalTimer(v));
                case "deploy" -> {
                    if (!(v instanceof DocNode.Scalar sc) || !"true".equals(sc.text())) {
                        throw v.where().error("deploy: write deploy: true");
                    }
                    if (!spec.service().startsOnDeploy()) {
                        throw v.where().error("deploy: the spec has no <Start>: nothing starts when it is deployed");
                    }
                    yield new Step.Deploy();
                }
                default -> new Step.Topology(node(v, false));
            };
        }
        List<ExpectedCall> calls = null;
        if (e.containsKey("expect")) {
            calls = new ArrayList<>();
            DocNode x = e.get("expect");
            if (!(x instanceof DocNode.Scalar s && s.text() == null)) {
                for (DocNode c : sequence(x).items()) {
                    calls.add(expected(c));
                }
            }
        }
        Set<String> ignore = e.containsKey("ignore") ? primitives(e.get("ignore")) : scenarioIgnore;
        if (calls != null) {
            for (ExpectedCall c : calls) {
                if (ignore.contains(c.primitive())) {
                    throw e.get("expect").where().error("expects " + c.primitive() + " but ignores it");
                }
            }
        }
        Set<String> state = e.containsKey("state") ? states(e.get("state")) : null;
        Boolean terminated = e.containsKey("terminated") ? bool(e.get("terminated")) : null;
        List<String> timers = null;
        if (e.containsKey("timers")) {
            timers = new ArrayList<>();
            for (DocNode t : list(e.get("timers"))) {
                timers.add(canonicalTimer(t));
            }
        }
        String note = e.containsKey("note") ? text(e.get("note")) : null;
        return new Step(index, n.where().line(), note, in, calls, ignore, state, terminated, timers);
    }

    private Step.Receive receive(DocNode v, MessageInput defaults) throws ScenarioException {
        List<MessageInput> out = new ArrayList<>();
        for (DocNode one : v instanceof DocNode.Sequence s ? s.items() : List.of(v)) {
            out.add(message(one).over(defaults));
        }
        if (out.isEmpty()) {
            throw v.where().error("receive needs at least one message");
        }
        for (MessageInput mi : out) {
            if (mi.source() == null) {
                throw v.where().error("a message needs a source (here or in defaults)");
            }
            if (mi.mode() == DeliveryMode.UNICAST && mi.destination() == null) {
                throw v.where().error("a unicast message needs a destination (here or in defaults)");
            }
        }
        return new Step.Receive(out);
    }

    private MessageInput message(DocNode n) throws ScenarioException {
        DocNode.Mapping m = mapping(n, MESSAGE);
        Map<String, DocNode> e = m.entries();
        if (e.containsKey("payload") && e.containsKey("payloadBase64")) {
            throw e.get("payloadBase64").where().error("give payload or payloadBase64, not both");
        }
        byte[] payload = null;
        if (e.containsKey("payload")) {
            payload = text(e.get("payload")).getBytes(StandardCharsets.UTF_8);
        } else if (e.containsKey("payloadBase64")) {
            try {
                payload = Base64.getDecoder().decode(text(e.get("payloadBase64")));
            } catch (IllegalArgumentException x) {
                throw e.get("payloadBase64").where().error("not base64: " + x.getMessage());
            }
        }
        if (payload != null && payload.length > 65_000) {
            throw n.where().error("payload larger than 65000 bytes");
        }
        return new MessageInput(n.where().line(),
                e.containsKey("serviceId") ? (int) number(e.get("serviceId"), 0, Integer.MAX_VALUE) : null,
                e.containsKey("type") ? type(e.get("type")) : null,
                e.containsKey("id") ? number(e.get("id"), Long.MIN_VALUE, Long.MAX_VALUE) : null,
                e.containsKey("mode") ? mode(e.get("mode")) : null,
                optional(e.get("source")), optional(e.get("destination")),
                optional(e.get("previousHop")), optional(e.get("root")),
                e.containsKey("hopLimit") ? (int) number(e.get("hopLimit"), 0, 255) : null, payload,
                e.containsKey("fields") ? fields(e.get("fields")) : null);
    }

    /**
     * A message's fields: {@code {seq: 42, note: {string: hi}, blob: {bytes: aGk=}, sack: {ranges: "1-3 5"}}}
     * (a bare number is an integer; bytes are base64), checked against the bounds of {@link MessageFields}.
     */
    private static MessageFields fields(DocNode n) throws ScenarioException {
        if (!(n instanceof DocNode.Mapping m)) {
            throw n.where().error("fields is a mapping of field names to values, got " + n.kind());
        }
        Map<String, MessageField> out = new LinkedHashMap<>();
        for (Map.Entry<String, DocNode> f : m.entries().entrySet()) {
            try {
                MessageFields.checkName(f.getKey());
            } catch (IllegalArgumentException x) {
                throw f.getValue().where().error(x.getMessage());
            }
            out.put(f.getKey(), fieldValue(f.getValue()));
        }
        try {
            return MessageFields.of(out);
        } catch (IllegalArgumentException x) {
            throw n.where().error(x.getMessage());
        }
    }

    private static MessageField fieldValue(DocNode v) throws ScenarioException {
        if (v instanceof DocNode.Scalar) {
            return new MessageField.Int(number(v, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        if (!(v instanceof DocNode.Mapping m) || m.entries().size() != 1) {
            throw v.where().error("a field value is a number or one of {integer: …}, {string: …}, {bytes: base64},"
                    + " {ranges: \"1-3 5\"}, got " + v.kind());
        }
        Map.Entry<String, DocNode> only = m.entries().entrySet().iterator().next();
        DocNode x = only.getValue();
        MessageField.Type type = MessageField.Type.ofLabel(only.getKey());
        if (type == null) {
            throw v.where().error("unknown field type '" + only.getKey() + "' (known: integer, string, bytes, ranges)");
        }
        try {
            return switch (type) {
                case INTEGER -> new MessageField.Int(number(x, Long.MIN_VALUE, Long.MAX_VALUE));
                case STRING -> new MessageField.Text(text(x));
                case BYTES -> new MessageField.Bytes(Base64.getDecoder().decode(text(x)));
                case RANGES -> MessageField.Ranges.parse(text(x));
            };
        } catch (IllegalArgumentException e) {
            throw x.where().error(e.getMessage());
        }
    }

    private ExpectedCall expected(DocNode c) throws ScenarioException {
        String primitive;
        DocNode params = null;
        if (c instanceof DocNode.Scalar s) {
            primitive = text(s);
        } else if (c instanceof DocNode.Mapping m && m.entries().size() == 1) {
            Map.Entry<String, DocNode> only = m.entries().entrySet().iterator().next();
            primitive = only.getKey();
            params = only.getValue();
        } else {
            throw c.where().error("an expected call is a primitive name, or one primitive name mapped to its "
                    + "parameters (sendControlMessage: {type: 2}), got " + c.kind());
        }
        checkPrimitive(c, primitive);
        Map<String, String> out = new LinkedHashMap<>();
        if (params != null && !(params instanceof DocNode.Scalar s && s.text() == null)) {
            Set<String> known = new LinkedHashSet<>(CALL_PARAMS.getOrDefault(primitive, Set.of()));
            known.add("at");
            known.add("outcome");
            DocNode.Mapping pm = mapping(params, known);
            for (Map.Entry<String, DocNode> p : pm.entries().entrySet()) {
                if (p.getKey().equals("fields")) {
                    // only the fields written are compared, each as its own parameter
                    for (Map.Entry<String, MessageField> f : fields(p.getValue()).asMap().entrySet()) {
                        out.put(FIELD_PARAM_PREFIX + f.getKey(), f.getValue().text());
                    }
                } else {
                    out.put(p.getKey(), callParam(p.getKey(), p.getValue()));
                }
            }
        }
        return new ExpectedCall(primitive, out, c.where().line());
    }

    /** A parameter of an expected call, normalised as {@link ActualCall} writes it. */
    private String callParam(String name, DocNode v) throws ScenarioException {
        return switch (name) {
            case "type" -> Integer.toString(Byte.toUnsignedInt(type(v)));
            case "id" -> Long.toString(number(v, Long.MIN_VALUE, Long.MAX_VALUE));
            case "hopLimit" -> Long.toString(number(v, 0, 255));
            case "mode" -> AttributeValues.name(mode(v));
            case "source", "destination", "previousHop", "root" -> AttributeValues.text(address(v, false));
            case "parent" -> {
                LogicalAddress a = optionalAddress(v);
                yield a == null ? "none" : AttributeValues.text(a);
            }
            case "children", "neighbours" -> formatAddresses(addresses(v));
            case "payload" -> text(v);
            case "timer" -> canonicalTimer(v);
            case "delay", "at" -> Long.toString(duration(v));
            case "wasSet" -> Boolean.toString(bool(v));
            case "outcome" -> {
                String o = text(v).toLowerCase(Locale.ROOT);
                if (!OUTCOMES.contains(o)) {
                    throw v.where().error("outcome is one of " + String.join(", ", OUTCOMES) + ", got '" + o + "'");
                }
                yield o;
            }
            default -> throw v.where().error("unknown parameter");
        };
    }

    // ------------------------------------------------------------------ values

    private static DocNode.Mapping mapping(DocNode n, Set<String> known) throws ScenarioException {
        if (!(n instanceof DocNode.Mapping m)) {
            throw n.where().error("expected a mapping, got " + n.kind());
        }
        if (known != null) {
            for (Map.Entry<String, DocNode> e : m.entries().entrySet()) {
                if (!known.contains(e.getKey())) {
                    throw e.getValue().where().error("unknown field (known: " + String.join(", ", known) + ")");
                }
            }
        }
        return m;
    }

    private static DocNode.Sequence sequence(DocNode n) throws ScenarioException {
        if (!(n instanceof DocNode.Sequence s)) {
            throw n.where().error("expected a list, got " + n.kind());
        }
        return s;
    }

    /** A list, or a single value taken as a list of one. */
    private static List<DocNode> list(DocNode n) {
        return n instanceof DocNode.Sequence s ? s.items() : List.of(n);
    }

    private static DocNode required(DocNode.Mapping m, String key) throws ScenarioException {
        DocNode n = m.entries().get(key);
        if (n == null) {
            throw m.where().error("missing required field '" + key + "'");
        }
        return n;
    }

    private static String text(DocNode n) throws ScenarioException {
        if (!(n instanceof DocNode.Scalar s) || s.text() == null) {
            throw n.where().error("expected a value, got " + n.kind());
        }
        return s.text();
    }

    private static long number(DocNode n, long min, long max) throws ScenarioException {
        try {
            return AttributeValues.longValue(text(n), min, max, "the value");
        } catch (IllegalArgumentException e) {
            throw n.where().error(e.getMessage());
        }
    }

    private static boolean bool(DocNode n) throws ScenarioException {
        String t = text(n);
        return switch (t) {
            case "true" -> true;
            case "false" -> false;
            default -> throw n.where().error("expected true or false, got '" + t + "'");
        };
    }

    private static byte type(DocNode n) throws ScenarioException {
        String t = text(n);
        if (t.equals("data")) {
            return io.statecast.overlay.message.FsmExtension.PAYLOAD_TYPE;
        }
        try {
            return AttributeValues.byteValue(t);
        } catch (IllegalArgumentException e) {
            throw n.where().error(e.getMessage() + " or 'data'");
        }
    }

    private static DeliveryMode mode(DocNode n) throws ScenarioException {
        try {
            return AttributeValues.deliveryMode(text(n));
        } catch (IllegalArgumentException e) {
            throw n.where().error(e.getMessage());
        }
    }

    /** A duration: whole milliseconds ({@code 500}) or with a unit ({@code 500ms}, {@code 1.5s}, {@code 2m}, {@code 1h}). */
    static long duration(DocNode n) throws ScenarioException {
        String t = text(n).strip();
        Matcher m = DURATION.matcher(t);
        if (!m.matches()) {
            throw n.where().error("a duration is whole milliseconds or a number with ms, s, m or h, got '" + t + "'");
        }
        String unit = m.group(3) == null ? "ms" : m.group(3);
        long scale = switch (unit) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            default -> 3_600_000;
        };
        long whole = Long.parseLong(m.group(1)) * scale;
        if (m.group(2) != null) {
            String frac = (m.group(2) + "00").substring(0, 3);
            long part = Long.parseLong(frac) * scale / 1000;
            if (Long.parseLong(frac) * scale % 1000 != 0) {
                throw n.where().error("'" + t + "' is not a whole number of milliseconds");
            }
            whole += part;
        }
        return whole;
    }

    private LogicalAddress optional(DocNode n) throws ScenarioException {
        return n == null ? null : address(n, false);
    }

    private LogicalAddress address(DocNode n, boolean keyOnly) throws ScenarioException {
        String t = text(n);
        if (!keyOnly && t.equals(AttributeValues.LOCAL)) {
            return self;
        }
        try {
            return AttributeValues.address(t);
        } catch (IllegalArgumentException e) {
            throw n.where().error(e.getMessage() + (keyOnly ? "" : " or 'local'"));
        }
    }

    private LogicalAddress optionalAddress(DocNode n) throws ScenarioException {
        if (n instanceof DocNode.Scalar s && (s.text() == null || s.text().equals("none"))) {
            return null;
        }
        return address(n, false);
    }

    private List<LogicalAddress> addresses(DocNode n) throws ScenarioException {
        if (n instanceof DocNode.Scalar s && s.text() == null) {
            return List.of();
        }
        List<LogicalAddress> out = new ArrayList<>();
        for (DocNode a : sequence(n).items()) {
            out.add(address(a, false));
        }
        return out;
    }

    static String formatAddresses(List<LogicalAddress> list) {
        List<String> parts = new ArrayList<>();
        for (LogicalAddress a : list) {
            parts.add(AttributeValues.text(a));
        }
        return "[" + String.join(" ", parts) + "]";
    }

    private Set<String> primitives(DocNode n) throws ScenarioException {
        Set<String> out = new TreeSet<>();
        for (DocNode p : list(n)) {
            String name = text(p);
            checkPrimitive(p, name);
            out.add(name);
        }
        return out;
    }

    private static void checkPrimitive(DocNode at, String name) throws ScenarioException {
        if (Primitive.ofSpecName(name) == null) {
            List<String> names = new ArrayList<>();
            for (Primitive p : Primitive.values()) {
                names.add(p.specName());
            }
            throw at.where().error("unknown primitive '" + name + "' (known: " + String.join(", ", names) + ")");
        }
    }

    private Set<String> states(DocNode n) throws ScenarioException {
        Set<String> ids = new TreeSet<>();
        for (SpecStructure.StateInfo s : spec.structure().states()) {
            ids.add(s.id());
        }
        Set<String> out = new TreeSet<>();
        for (DocNode s : list(n)) {
            String id = text(s);
            if (!ids.contains(id)) {
                throw s.where().error("the spec has no state '" + id + "' (states: " + String.join(", ", ids) + ")");
            }
            out.add(id);
        }
        return out;
    }

    /** A timer named by its number or by the timer event that waits for exactly it, as {@link #timerName} writes it. */
    private String canonicalTimer(DocNode n) throws ScenarioException {
        return timerName(spec, timerId(n));
    }

    private int timerId(DocNode n) throws ScenarioException {
        String t = text(n);
        if (t.matches("[0-9]{1,10}")) {
            return (int) number(n, 0, Integer.MAX_VALUE);
        }
        for (TimerEventDefinition d : spec.timerEvents()) {
            if (d.name().equals(t)) {
                if (d.filter().timerId() == TimerFilter.ANY_TIMER) {
                    throw n.where().error("timer event " + t + " waits for any timer: name the timer by its number");
                }
                return d.filter().timerId();
            }
        }
        List<String> names = new ArrayList<>();
        for (TimerEventDefinition d : spec.timerEvents()) {
            names.add(d.name());
        }
        throw n.where().error("'" + t + "' is neither a timer number nor a timer event of the spec (timer events: "
                + String.join(", ", names) + ")");
    }

    /** {@code name (id)} when one timer event waits for exactly timer {@code id}, else the number. */
    static String timerName(ServiceSpec spec, int id) {
        String name = null;
        for (TimerEventDefinition d : spec.timerEvents()) {
            if (d.filter().timerId() == id) {
                if (name != null) {
                    return Integer.toString(id);
                }
                name = d.name();
            }
        }
        return name == null ? Integer.toString(id) : name;
    }

    private static Set<String> ordered(String... names) {
        return new LinkedHashSet<>(List.of(names));
    }
}
