package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.sf.saxon.om.NodeInfo;
import net.sf.saxon.s9api.Axis;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SaxonApiException;
import net.sf.saxon.s9api.XPathSelector;
import net.sf.saxon.s9api.XQueryEvaluator;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmValue;
import net.sf.saxon.value.BooleanValue;
import net.sf.saxon.value.NumericValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The compiled subset answers exactly as Saxon does on the history document: random expressions
 * generated from the subset's grammar (random event and variable names, spacing, comments,
 * nesting) over random histories (messages, timers, node records, entries without XML, eviction),
 * item by item — the same nodes (by identity in the document), the same atomic values, an error
 * where Saxon raises one. Every generated expression must compile (not fall back to Saxon).
 * Expressions also read datamodel variables ({@code <data>} elements holding random integers,
 * strings, booleans, an element, or unbound), Saxon getting the element as a node and the
 * compiled form its {@link DatamodelItem}.
 *
 * <p>{@code -Dstatecast.seed=…} replays a run; {@code -Psoak} runs many more cases.
 */
class QuerySubsetDifferentialTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final int CASES = Boolean.getBoolean("statecast.soak") ? 200_000 : 3_000;
    private static XQueryEngine engine;

    @BeforeAll
    static void start() {
        engine = new XQueryEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @Test
    void shouldAnswerEveryGeneratedExpressionLikeSaxon() throws Exception {
        Random rnd = new Random(SEED);
        HistoryNames names = HistoryNames.of(engine.processor().getUnderlyingConfiguration());
        int compared = 0;
        int refused = 0;
        for (int round = 0; compared < CASES; round++) {
            Gen gen = new Gen(rnd);
            History h = gen.history(names);
            gen.datamodel(engine.processor().getUnderlyingConfiguration());
            for (int q = 0; q < 10; q++, compared++) {
                boolean xquery = rnd.nextBoolean();
                String text = gen.expression(xquery);
                String where = (xquery ? "XQuery " : "XPath ") + text + "\non " + h.entries() + "\n(seed " + SEED
                        + ", round " + round + ")";
                try {
                    refused += check(gen, h, xquery, text) ? 0 : 1;
                } catch (AssertionError | Exception e) {
                    throw new AssertionError(e.getMessage() + "\n" + where, e);
                }
            }
        }
        // a few generated texts hit Saxon compile-time refusals or internal errors (its static
        // analysis of deep nesting); those never reach a spec, but they must stay rare
        assertTrue(refused < CASES / 20, refused + " of " + CASES + " refused by Saxon (seed " + SEED + ")");
    }

    /**
     * {@code forgetEvents} with a compiled path removes, over the entries and without building the
     * document, exactly the entries Saxon's selection removes: two histories made alike, one
     * forgotten each way, must hold the same entries with the same XML forms (the first builds its
     * document only afterwards, from what the removal left).
     */
    @Test
    void forgettingACompiledSelectionShouldRemoveWhatSaxonsRemoves() throws Exception {
        Random rnd = new Random(SEED + 1);
        HistoryNames names = HistoryNames.of(engine.processor().getUnderlyingConfiguration());
        QueryEvaluator evaluator = new QueryEvaluator(EvaluationGuard.NONE);
        int removed = 0;
        for (int round = 0; round < CASES / 3; round++) {
            long seed = rnd.nextLong();
            Gen gen = new Gen(new Random(seed));
            History mine = gen.history(names);
            History saxons = new Gen(new Random(seed)).history(names);
            gen.datamodel(engine.processor().getUnderlyingConfiguration());
            String text = gen.expression(false);
            CompiledPath cp;
            try {
                cp = engine.compilePath(text, gen.params.keySet(), gen.dataIds);
            } catch (QueryException | RuntimeException e) {
                continue;
            }
            CompiledPath bySaxon = new CompiledPath(cp.text(), cp.executable(), cp.reads(), cp.data(), null);
            String where = text + "\non " + mine.entries() + "\n(seed " + SEED + ", round " + round + ")";
            int n;
            try {
                n = evaluator.forget("saxon", bySaxon, gen.bindings, gen.data, saxons);
            } catch (EvaluationException | RuntimeException e) {
                continue; // Saxon raised an error: the action fails, nothing is removed either way
            }
            assertEquals(n, evaluator.forget("mine", cp, gen.bindings, gen.data, mine), where);
            // the two histories were made alike: an entry is known by its time (its position when made)
            assertEquals(saxons.entries().stream().map(HistoryEntry::timeMillis).toList(),
                    mine.entries().stream().map(HistoryEntry::timeMillis).toList(), where);
            for (int i = 0; i < mine.size(); i++) {
                assertEquals(saxons.hasXml(i), mine.hasXml(i), "XML form of entry " + i + ": " + where);
            }
            if (mine.queryable()) {
                assertEquals(saxons.document().toString(), mine.document().toString(), where);
            }
            removed += n;
        }
        assertTrue(removed > 0, "nothing was ever removed (seed " + SEED + ")");
    }

    /** Compares one expression; false when Saxon itself does not compile it (nothing to compare). */
    private static boolean check(Gen gen, History h, boolean xquery, String text) throws Exception {
        try {
            return compareOne(gen, h, xquery, text);
        } catch (StepBound bounded) {
            return false; // counted with Saxon's refusals, which must stay rare
        }
    }

    private static boolean compareOne(Gen gen, History h, boolean xquery, String text) throws Exception {
        CompiledExpression ours;
        XdmValue expected;
        String saxonError = null;
        if (xquery) {
            CompiledQuery cq;
            try {
                cq = engine.compileQuery(text, gen.params.keySet(), gen.dataIds);
            } catch (QueryException | RuntimeException e) {
                return false;
            }
            ours = cq.compiled();
            assertNotNull(ours, "outside the subset: "
                    + CompiledExpression.outsideSubset(text, true, gen.params.keySet(), gen.dataIds));
            List<Object> mine = run(ours, h, gen.bindings, gen.data);
            XQueryEvaluator e = cq.executable().load();
            for (String p : cq.parameters()) {
                e.setExternalVariable(new QName(p), gen.bindings.get(p));
            }
            for (DatamodelRef r : cq.data()) {
                e.setExternalVariable(r.name(), gen.data.value(r.index()));
            }
            e.setContextItem(h.document());
            try {
                expected = e.evaluate();
            } catch (SaxonApiException ex) {
                expected = null;
                saxonError = ex.getMessage();
            } catch (RuntimeException ex) {
                return false; // an internal error of Saxon's (seen: a ClassCastException in its ValueComparison)
            }
            compare(h, mine, expected, saxonError);
            if (saxonError == null) {
                assertEquals(CompiledQuery.isTrue(expected), ours.isTrue(h, gen.bindings, gen.data), "truth");
                assertEquals(CompiledQuery.isTrue(expected), new QueryEvaluator(EvaluationGuard.NONE).evaluateQuery(
                        "saxon", new CompiledQuery(cq.text(), cq.executable(), cq.reads(), cq.parameters(), cq.data(),
                                null), gen.bindings, gen.data, h), "truth through the evaluator");
            }
        } else {
            CompiledPath cp;
            try {
                cp = engine.compilePath(text, gen.params.keySet(), gen.dataIds);
            } catch (QueryException | RuntimeException e) {
                return false;
            }
            ours = cp.compiled();
            assertNotNull(ours, "outside the subset: "
                    + CompiledExpression.outsideSubset(text, false, gen.params.keySet(), gen.dataIds));
            List<Object> mine = run(ours, h, gen.bindings, gen.data);
            XPathSelector s = cp.executable().load();
            for (Map.Entry<QName, XdmAtomicValue> b : gen.bindings.values().entrySet()) {
                s.setVariable(b.getKey(), b.getValue());
            }
            for (int i = 0; i < gen.dataIds.size(); i++) {
                s.setVariable(new QName(gen.dataIds.get(i)), gen.data.value(i));
            }
            s.setContextItem(h.document());
            try {
                expected = s.evaluate();
            } catch (SaxonApiException ex) {
                expected = null;
                saxonError = ex.getMessage();
            } catch (RuntimeException ex) {
                return false; // an internal error of Saxon's (seen: a ClassCastException in its ValueComparison)
            }
            compare(h, mine, expected, saxonError);
            if (saxonError == null) {
                // the action's view: the same PathResult as QueryEvaluator makes of Saxon's answer
                CompiledPath bySaxon = new CompiledPath(cp.text(), cp.executable(), cp.reads(), cp.data(), null);
                PathResult want = new QueryEvaluator(EvaluationGuard.NONE).evaluatePath("saxon", bySaxon, gen.bindings,
                        gen.data, h);
                PathResult got = ours.select(h, gen.bindings, gen.data);
                if (got instanceof PathResult.Address a) {
                    got = new PathResult.Text(AttributeValues.text(a.address())); // Saxon gives the text
                }
                if (want == null) {
                    assertNull(got);
                } else if (want instanceof PathResult.Bytes b) {
                    assertArrayEquals(b.bytes(), ((PathResult.Bytes) got).bytes());
                } else {
                    assertEquals(want, got);
                }
            }
        }
        return true;
    }

    /**
     * Our value, or {@code null} for a dynamic error; {@link StepBound} when the evaluation ran
     * out of steps, as a generated nesting of {@code //} inside predicates can (Saxon's optimiser
     * may answer it at once): bounded by design, not compared.
     */
    private static List<Object> run(CompiledExpression e, History h, QueryBindings b, DatamodelValues data) {
        try {
            return e.run(h, b, data);
        } catch (EvaluationException ex) {
            if (ex.fatal()) {
                throw new StepBound();
            }
            return null;
        }
    }

    private static final class StepBound extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    private static void compare(History h, List<Object> mine, XdmValue expected, String saxonError) {
        if (saxonError != null || mine == null) {
            assertEquals(saxonError != null, mine == null, saxonError != null ? "Saxon raised " + saxonError
                    + " but we gave " + mine : "we raised an error, Saxon gave " + expected);
            return;
        }
        if (expected.size() == 0 && List.of(false).equals(mine)) {
            // Saxon rewrites a general comparison with a statically empty operand to (), where
            // XPath says false (ours); the query's truth and every boolean use of it are the same
            return;
        }
        assertEquals(expected.size(), mine.size(), () -> "size: Saxon " + expected + ", ours " + mine);
        for (int i = 0; i < mine.size(); i++) {
            XdmItem want = expected.itemAt(i);
            Object got = mine.get(i);
            if (want instanceof XdmNode wn && got instanceof TestData.Item d) {
                // a datamodel variable: Saxon's node is its <data> element
                assertEquals("data", wn.getNodeName().getLocalName(), "item " + i + " is a <data> element");
                assertEquals(d.name, wn.getAttributeValue(new QName("id")), "item " + i + " is another variable");
                assertEquals(wn.getStringValue(), d.text(), "string value of item " + i);
            } else if (want instanceof XdmNode wn) {
                if (!(got instanceof HistoryItem hi)) {
                    fail("item " + i + ": Saxon a node " + wn + ", ours " + got);
                    return;
                }
                NodeInfo same = toSaxon(h, hi).getUnderlyingNode();
                assertEquals(wn.getUnderlyingNode(), same, "item " + i + " is another node");
                assertEquals(wn.getStringValue(), hi.stringValue(h), "string value of item " + i);
            } else {
                Object v = ((XdmAtomicValue) want).getUnderlyingValue();
                if (v instanceof BooleanValue) {
                    assertEquals(Boolean.valueOf(want.getStringValue()), got, "item " + i);
                } else if (v instanceof NumericValue) {
                    assertEquals(Long.parseLong(want.getStringValue()), got, "item " + i);
                } else {
                    assertEquals(want.getStringValue(), got, "item " + i);
                }
            }
        }
    }

    /** The node of the history document that {@code item} stands for. */
    private static XdmNode toSaxon(History h, HistoryItem item) {
        XdmNode doc = h.document();
        if (item.kind == HistoryItem.DOCUMENT) {
            return doc;
        }
        XdmNode root = children(doc).get(0);
        if (item.kind == HistoryItem.ROOT) {
            return root;
        }
        int before = 0;
        for (int i = 0; i < item.index; i++) {
            before += h.hasXml(i) ? 1 : 0;
        }
        XdmNode top = children(root).get(before);
        return switch (item.kind) {
            case HistoryItem.EVENT, HistoryItem.NODE -> top;
            case HistoryItem.NAME_ATTRIBUTE, HistoryItem.TIME_ATTRIBUTE -> top.axisIterator(Axis.ATTRIBUTE,
                    new QName(item.name())).next();
            case HistoryItem.MESSAGE, HistoryItem.TIMER -> children(top).get(0);
            case HistoryItem.FIELD, HistoryItem.TIMER_IDENTIFIER -> named(children(top).get(0), item.name());
            case HistoryItem.SELF_ADDRESS -> children(top).get(0);
            case HistoryItem.GROUP -> named(top, item.name());
            case HistoryItem.FIELDS -> named(children(top).get(0), "Fields");
            case HistoryItem.MESSAGE_FIELD -> children(named(children(top).get(0), "Fields")).get(item.sub);
            case HistoryItem.FIELD_NAME_ATTRIBUTE, HistoryItem.FIELD_TYPE_ATTRIBUTE -> children(
                    named(children(top).get(0), "Fields")).get(item.sub).axisIterator(Axis.ATTRIBUTE,
                    new QName(item.name())).next();
            default -> children(named(top, new String[] {"Parent", "Children", "Neighbours"}[item.group()]))
                    .get(item.indexInGroup());
        };
    }

    private static List<XdmNode> children(XdmNode n) {
        List<XdmNode> out = new ArrayList<>();
        n.axisIterator(Axis.CHILD).forEachRemaining(c -> out.add((XdmNode) c));
        return out;
    }

    private static XdmNode named(XdmNode n, String name) {
        for (XdmNode c : children(n)) {
            if (name.equals(c.getNodeName() == null ? null : c.getNodeName().getLocalName())) {
                return c;
            }
        }
        throw new AssertionError("no " + name + " in " + n);
    }

    // ------------------------------------------------------------------ generator

    /** What a node expression selects, so that steps and predicates after it make sense. */
    private enum Hint {
        EVENT, MESSAGE, FIELD, TIMER, NODE, GROUP, ADDRESS, ATTRIBUTE, ANY
    }

    private record Var(String name, Hint hint) {
    }

    /** Random histories and random expressions of the subset over them (one set of names per round). */
    static final class Gen {
        private static final String[] FIELDS = {"MessageIdentifier", "ServiceIdentifier", "DeliveryMode", "HopLimit",
            "SourceAddress", "DestinationAddress", "PreviousHopAddress", "RootAddress", "MessageType", "MessageKind",
            // a field name selects at most one <Field> (names are unique in a message), as the
            // other children of <Message>: value comparisons on them stay single-item
            "Payload", "Fields", "Fields/Field[@name = 'seq']", "Fields/Field[\"note\" = @name]"};
        private static final String[] NUMERIC_FIELDS = {"HopLimit", "MessageType", "ServiceIdentifier"};
        private static final String[] GROUPS = {"Parent", "Children", "Neighbours"};

        private final Random rnd;
        final String[] events;
        final Map<String, Object> params = new LinkedHashMap<>();
        final QueryBindings bindings;
        private final String intParam;
        private final String boolParam;
        private final String strParam;
        /** Datamodel variables: an integer, a boolean, a string, an element's text, one never bound. */
        final List<String> dataIds = new ArrayList<>();
        private final Map<String, Object> dataValues = new LinkedHashMap<>();
        private final String intData;
        private final String boolData;
        private final String strData;
        private final String nodeData;
        private final String unboundData;
        TestData data;
        private List<String> out;
        private boolean xquery;
        private List<Var> scope;
        private int depth;

        Gen(Random rnd) {
            this.rnd = rnd;
            events = new String[2 + rnd.nextInt(3)];
            for (int i = 0; i < events.length; i++) {
                events[i] = identifier() + i;
            }
            intParam = "n" + identifier();
            boolParam = "b" + identifier();
            strParam = "s" + identifier();
            params.put(intParam, (long) rnd.nextInt(5));
            params.put(boolParam, rnd.nextBoolean());
            params.put(strParam, pick(events));
            bindings = QueryBindings.of(params);
            intData = "di" + identifier();
            boolData = "db" + identifier();
            strData = "ds" + identifier();
            nodeData = "dn" + identifier();
            unboundData = "du" + identifier();
            // an integer kept as a Java number (an arithmetic <assign>) or as text; either way the
            // variable is its <data> element, untyped
            dataValues.put(intData, rnd.nextBoolean() ? (Object) (long) (rnd.nextInt(7) - 1)
                    : rnd.nextBoolean() ? (Object) (double) rnd.nextInt(5) : " " + rnd.nextInt(5) + " ");
            dataValues.put(boolData, rnd.nextBoolean() ? "true" : rnd.nextBoolean() ? "false" : "1");
            dataValues.put(strData, switch (rnd.nextInt(4)) {
                case 0 -> pick(events);
                case 1 -> "";
                case 2 -> pick(new String[] {"unicast", "data", "a b"});
                default -> Integer.toString(rnd.nextInt(3));
            });
            dataValues.put(nodeData, new String[] {pick(events), Integer.toString(rnd.nextInt(4))});
            dataValues.put(unboundData, null);
            dataIds.addAll(dataValues.keySet());
            java.util.Collections.shuffle(dataIds, rnd);
        }

        /** Makes the datamodel's {@code <data>} elements with the configuration that compiled the queries. */
        void datamodel(net.sf.saxon.Configuration config) throws Exception {
            data = new TestData(config, dataIds, dataValues);
        }

        private String identifier() {
            String first = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
            String rest = first + "0123456789-.";
            StringBuilder sb = new StringBuilder().append(first.charAt(rnd.nextInt(first.length())));
            for (int i = rnd.nextInt(8); i > 0; i--) {
                sb.append(rest.charAt(rnd.nextInt(rest.length())));
            }
            return sb.toString();
        }

        private <T> T pick(T[] a) {
            return a[rnd.nextInt(a.length)];
        }

        History history(HistoryNames names) {
            History h = new History(1 + rnd.nextInt(14), names, rnd.nextInt(8));
            int n = rnd.nextInt(18);
            for (int i = 0; i < n; i++) {
                switch (rnd.nextInt(6)) {
                    case 0 -> h.addTimerEvent(pick(events), rnd.nextInt(4), i, rnd.nextInt(6) > 0);
                    case 1 -> h.addNodeRecord(new NodeSnapshot(address(), address(),
                            rnd.nextBoolean() ? address() : null, addresses(), addresses()), i);
                    default -> h.addMessageEvent(pick(events), message(), i, rnd.nextInt(6) > 0);
                }
            }
            return h;
        }

        private LogicalAddress address() {
            return address(rnd.nextInt(3) == 0);
        }

        private LogicalAddress address(boolean dt) {
            return dt ? new DtAddress(rnd.nextInt(3), rnd.nextInt(3)) : new TreeAddress(rnd.nextInt(5));
        }

        private List<LogicalAddress> addresses() {
            List<LogicalAddress> out = new ArrayList<>();
            for (int i = rnd.nextInt(4); i > 0; i--) {
                out.add(address());
            }
            return out;
        }

        private OverlayMessage message() {
            DeliveryMode mode = DeliveryMode.values()[rnd.nextInt(DeliveryMode.values().length)];
            List<Extension> ext = new ArrayList<>();
            if (rnd.nextInt(5) > 0) {
                ext.add(new FsmExtension(rnd.nextInt(3), (byte) rnd.nextInt(256), rnd.nextInt(4)));
            }
            if (rnd.nextBoolean()) {
                byte[] p = new byte[rnd.nextInt(6)];
                rnd.nextBytes(p);
                ext.add(new PayloadExtension(p));
            }
            if (!ext.isEmpty() && ext.get(0) instanceof FsmExtension && rnd.nextInt(3) == 0) {
                // typed fields: the compiled model must place <Fields> between the attributes and the payload
                Map<String, io.statecast.overlay.message.MessageField> fields = new java.util.TreeMap<>();
                for (int i = 0, n = 1 + rnd.nextInt(3); i < n; i++) {
                    String name = pick(new String[] {"seq", "win", "note", "blob"});
                    fields.put(name, switch (name) {
                        case "seq", "win" -> new io.statecast.overlay.message.MessageField.Int(rnd.nextInt(5));
                        case "note" -> new io.statecast.overlay.message.MessageField.Text(pick(new String[] {"a", "b c", ""}));
                        default -> new io.statecast.overlay.message.MessageField.Bytes(new byte[] {(byte) rnd.nextInt(256)});
                    });
                }
                ext.add(new io.statecast.overlay.message.FieldsExtension(
                        io.statecast.overlay.message.MessageFields.of(fields)));
            }
            boolean dt = rnd.nextInt(3) == 0; // one family per message
            return new OverlayMessage(mode, rnd.nextInt(4), dt ? address(true) : Messages.a(rnd.nextInt(4)),
                    mode == DeliveryMode.UNICAST ? address(dt) : null, address(dt), rnd.nextBoolean() ? address(dt) : null,
                    ext);
        }

        /** A random expression of the subset, spelled with random spacing and comments. */
        String expression(boolean xquery) {
            this.xquery = xquery;
            out = new ArrayList<>();
            scope = new ArrayList<>();
            depth = 0;
            if (xquery) {
                List<String> declared = new ArrayList<>(params.keySet());
                declared.addAll(dataIds); // declared but unused is fine
                java.util.Collections.shuffle(declared, rnd);
                for (String p : declared) {
                    emit("declare", "variable", "$" + p, "external", ";");
                }
            }
            if (rnd.nextInt(8) == 0) {
                // a datamodel variable as the result: an action's value, a query's truth
                if (rnd.nextBoolean()) {
                    emit("$" + anyData());
                } else {
                    emit("if", "(");
                    bool(false);
                    emit(")", "then", "$" + anyData(), "else");
                    if (rnd.nextBoolean()) {
                        emit("$" + anyData());
                    } else {
                        nodes(false);
                    }
                }
            } else if (!xquery || rnd.nextInt(4) == 0) {
                nodes(false);
            } else {
                bool(false);
            }
            return spell(out, xquery);
        }

        private void emit(String... tokens) {
            out.addAll(List.of(tokens));
        }

        private String anyData() {
            return dataIds.get(rnd.nextInt(dataIds.size()));
        }

        /** A boolean reading a datamodel variable, where the subset reads values (never a path or predicate over it). */
        private void dataBool() {
            switch (rnd.nextInt(9)) {
                case 0 -> {
                    emit("count", "(");
                    nodes(false);
                    emit(")", pick(new String[] {"=", "!=", "<", "<=", ">", ">="}), "$" + intData);
                }
                case 1 -> {
                    // numbers only against the integer (else a cast error, which Saxon may skip
                    // under 'or'); a value comparison compares an untyped value as a string
                    if (rnd.nextBoolean()) {
                        emit("$" + intData, pick(new String[] {"=", "!=", "<", ">="}), Integer.toString(rnd.nextInt(5)));
                    } else {
                        emit("$" + pick(new String[] {intData, strData, nodeData}),
                                pick(new String[] {"=", "!=", "<", ">=", "eq", "ne", "lt", "ge"}), literal(value()));
                    }
                }
                case 2 -> {
                    emit("$" + pick(new String[] {strData, nodeData, intData}), rnd.nextBoolean() ? "=" : "!=");
                    nodes(true);
                }
                case 3 -> emit("$" + boolData, pick(new String[] {"=", "!="}), pick(new String[] {"true", "false"}), "(", ")");
                case 4 -> emit(pick(new String[] {"exists", "empty", "boolean", "not"}), "(", "$" + anyData(), ")");
                case 5 -> emit("count", "(", "$" + anyData(), ")", "=", Integer.toString(rnd.nextInt(2)));
                case 6 -> emit("$" + anyData(), pick(new String[] {"=", "!=", "<", "eq"}), "$" + anyData());
                case 7 -> {
                    // a let or quantifier over a variable's value: read, not navigated
                    open(true);
                    String name = identifier();
                    emit(rnd.nextBoolean() ? "some" : "let", "$" + name);
                    boolean let = out.get(out.size() - 2).equals("let");
                    emit(let ? ":=" : "in", "$" + anyData(), let ? "return" : "satisfies", "$" + name,
                            pick(new String[] {"=", "!=", ">"}), "$" + anyData());
                    close(true);
                }
                default -> emit("$" + anyData());
            }
        }

        private boolean deeper() {
            return depth < 4 && rnd.nextInt(3 + depth * 2) < 2;
        }

        /** Appends a node expression; {@code operand}: it must be a path-level expression (parenthesize let/if). */
        private Hint nodes(boolean operand) {
            depth++;
            try {
                int choice = deeper() ? rnd.nextInt(11) : rnd.nextInt(4);
                switch (choice) {
                    case 9: {
                        Hint hint = nodes(true);
                        emit(rnd.nextBoolean() ? "|" : "union");
                        nodes(true);
                        return hint == Hint.EVENT ? Hint.ANY : hint;
                    }
                    case 4: {
                        Var v = nodeVar();
                        if (v != null) {
                            emit("$" + v.name);
                            return steps(v.hint);
                        }
                        return absolutePath();
                    }
                    case 5: {
                        emit("(");
                        nodes(false);
                        emit(",");
                        nodes(false);
                        emit(")");
                        if (rnd.nextBoolean()) {
                            predicates(Hint.ANY);
                        }
                        return Hint.ANY;
                    }
                    case 6: {
                        open(operand);
                        emit("if", "(");
                        bool(false);
                        emit(")", "then");
                        nodes(false);
                        emit("else");
                        nodes(false);
                        close(operand);
                        return Hint.ANY;
                    }
                    case 7: {
                        open(operand);
                        int mark = scope.size();
                        emit("let");
                        for (int k = rnd.nextInt(2); k >= 0; k--) {
                            String name = identifier();
                            emit("$" + name, ":=");
                            Hint hint = nodes(false);
                            scope.add(new Var(name, hint));
                            if (k > 0) {
                                emit(",");
                            }
                        }
                        emit("return");
                        nodes(false);
                        scope.subList(mark, scope.size()).clear();
                        close(operand);
                        return Hint.ANY;
                    }
                    case 8: {
                        emit("(");
                        Hint hint = nodes(false);
                        emit(")");
                        predicates(hint);
                        return hint;
                    }
                    default:
                        return absolutePath();
                }
            } finally {
                depth--;
            }
        }

        private void open(boolean operand) {
            if (operand) {
                emit("(");
            }
        }

        private void close(boolean operand) {
            if (operand) {
                emit(")");
            }
        }

        private Var nodeVar() {
            List<Var> nodes = new ArrayList<>();
            for (Var v : scope) {
                if (v.hint != null) {
                    nodes.add(v);
                }
            }
            return nodes.isEmpty() ? null : nodes.get(rnd.nextInt(nodes.size()));
        }

        private Hint absolutePath() {
            Hint hint;
            switch (rnd.nextInt(9)) {
                case 0 -> {
                    emit("//", "Event");
                    hint = Hint.EVENT;
                }
                case 1 -> {
                    emit("/", "HistoryOfEvents", "/", "Node");
                    hint = Hint.NODE;
                }
                case 2 -> {
                    emit("//", "Node");
                    hint = Hint.NODE;
                }
                case 3 -> {
                    emit("/", "*", "/", "*");
                    hint = Hint.ANY;
                }
                case 4 -> {
                    emit("//", "LogicalAddress");
                    hint = Hint.ADDRESS;
                }
                case 5 -> {
                    emit("//", rnd.nextBoolean() ? "Message" : pick(FIELDS));
                    hint = out.get(out.size() - 1).equals("Message") ? Hint.MESSAGE : Hint.FIELD;
                }
                default -> {
                    emit("/", "HistoryOfEvents", "/", rnd.nextInt(8) == 0 ? "*" : "Event");
                    hint = Hint.EVENT;
                }
            }
            predicates(hint);
            return steps(hint);
        }

        /** Appends 0..3 steps that fit after nodes of {@code hint}. */
        private Hint steps(Hint hint) {
            while (rnd.nextInt(3) > 0) {
                String sep = rnd.nextInt(6) == 0 ? "//" : "/";
                String name;
                Hint next;
                switch (hint) {
                    case EVENT -> {
                        if (rnd.nextInt(5) == 0 && sep.equals("/")) {
                            emit(sep, rnd.nextBoolean() ? "@name" : rnd.nextBoolean() ? "@time" : "@*");
                            return Hint.ATTRIBUTE;
                        }
                        name = rnd.nextInt(6) == 0 ? "Timer" : "Message";
                        next = name.equals("Timer") ? Hint.TIMER : Hint.MESSAGE;
                        if (sep.equals("//") && rnd.nextBoolean()) {
                            name = pick(FIELDS);
                            next = Hint.FIELD;
                        }
                    }
                    case MESSAGE -> {
                        name = rnd.nextInt(8) == 0 ? "*" : pick(FIELDS);
                        next = Hint.FIELD;
                    }
                    case TIMER -> {
                        name = "TimerIdentifier";
                        next = Hint.FIELD;
                    }
                    case NODE -> {
                        if (rnd.nextBoolean()) {
                            name = pick(GROUPS);
                            next = Hint.GROUP;
                        } else {
                            name = "LogicalAddress";
                            next = Hint.ADDRESS;
                        }
                    }
                    case GROUP -> {
                        name = "LogicalAddress";
                        next = Hint.ADDRESS;
                    }
                    case ANY -> {
                        name = rnd.nextInt(4) == 0 ? "Unknown" : rnd.nextBoolean() ? "*" : "Message";
                        next = Hint.ANY;
                    }
                    default -> {
                        if (rnd.nextInt(4) == 0) {
                            emit("/", ".");
                        }
                        return hint;
                    }
                }
                emit(sep, name);
                hint = next;
                predicates(hint);
            }
            return hint;
        }

        private void predicates(Hint hint) {
            while (rnd.nextInt(3) == 0) {
                emit("[");
                switch (rnd.nextInt(hint == Hint.EVENT ? 8 : 6)) {
                    case 0 -> emit("1");
                    case 1 -> emit("last", "(", ")");
                    case 2 -> emit(Integer.toString(rnd.nextInt(4)));
                    case 3 -> {
                        depth++;
                        emit("count", "(");
                        nodes(false);
                        emit(")");
                        depth--;
                    }
                    case 4, 5 -> relativeBool(hint);
                    default -> {
                        nameTest(false);
                        for (int k = rnd.nextInt(3); k > 0; k--) {
                            emit("or");
                            nameTest(false);
                        }
                    }
                }
                emit("]");
            }
        }

        private void nameTest(boolean relative) {
            String lit = literal(rnd.nextInt(5) == 0 ? "missing" : pick(events));
            if (rnd.nextInt(4) == 0) {
                emit(lit, "=", "@name");
            } else {
                emit("@name", "=", lit);
            }
        }

        private String literal(String value) {
            return rnd.nextBoolean() ? "'" + value + "'" : "\"" + value + "\"";
        }

        /** A boolean about the context item, a node of {@code hint}. */
        private void relativeBool(Hint hint) {
            Var v = nodeVar();
            switch (rnd.nextInt(8)) {
                case 0 -> {
                    if (v != null) {
                        emit("not", "(", ".", "=", "$" + v.name, ")");
                    } else {
                        emit("exists", "(", "*", ")");
                    }
                }
                case 1 -> {
                    if (rnd.nextBoolean()) {
                        emit("position", "(", ")", pick(new String[] {"=", "!=", "<", ">=", "eq", "lt", "ge"}),
                                Integer.toString(1 + rnd.nextInt(3)));
                    } else {
                        emit("position", "(", ")", pick(new String[] {"lt", "ne", "le", "<"}), "last", "(", ")");
                    }
                }
                case 2 -> {
                    switch (hint) {
                        case EVENT -> emit("Message", "/", pick(FIELDS), pick(new String[] {"=", "!=", "eq", "ne", "lt"}),
                                literal(value()));
                        case NODE -> emit(pick(GROUPS), "/", "LogicalAddress", "=", literal(value()));
                        case MESSAGE -> emit(pick(NUMERIC_FIELDS), pick(new String[] {"<", ">", "<=", "="}),
                                Integer.toString(rnd.nextInt(130)));
                        default -> emit(".", pick(new String[] {"=", "!=", "<", ">"}), literal(value()));
                    }
                }
                case 3 -> {
                    if (hint == Hint.EVENT) {
                        emit("@time", pick(new String[] {">=", "<", "=", "!="}), Integer.toString(rnd.nextInt(15)));
                    } else {
                        emit("exists", "(", ".", ")");
                    }
                }
                case 4 -> {
                    emit("not", "(");
                    bool(false);
                    emit(")");
                }
                case 5 -> emit("empty", "(", rnd.nextBoolean() ? "*" : "@*", ")");
                case 6 -> {
                    if (hint == Hint.EVENT && rnd.nextBoolean()) {
                        emit("@time", pick(new String[] {">=", "<", "="}), "$" + intData);
                    } else if (rnd.nextBoolean()) {
                        emit(".", pick(new String[] {"=", "!="}), "$" + pick(new String[] {strData, nodeData, intData}));
                    } else {
                        bool(false);
                    }
                }
                default -> bool(false);
            }
        }

        private String value() {
            return switch (rnd.nextInt(6)) {
                case 0 -> pick(events);
                case 1 -> pick(new String[] {"unicast", "multicast", "flood", "data", "control"});
                case 2 -> Integer.toString(rnd.nextInt(5));
                case 3 -> rnd.nextInt(3) + "," + rnd.nextInt(3);
                case 4 -> "";
                default -> "true";
            };
        }

        /** Appends a boolean expression. */
        private void bool(boolean operand) {
            depth++;
            try {
                int choice = deeper() ? rnd.nextInt(14) : rnd.nextInt(6);
                switch (choice) {
                    case 0 -> {
                        emit(pick(new String[] {"exists", "empty", xquery ? "fn:exists" : "exists", "boolean"}), "(");
                        nodes(false);
                        emit(")");
                    }
                    case 1 -> {
                        nodes(true);
                        emit(pick(new String[] {"=", "!=", "<", "<=", ">", ">="}));
                        if (rnd.nextBoolean()) {
                            nodes(true);
                        } else {
                            emit(literal(value()));
                        }
                    }
                    case 2 -> {
                        emit("count", "(");
                        nodes(false);
                        emit(")", pick(new String[] {"=", "!=", "<", "<=", ">", ">=", "eq", "ne", "lt", "le", "gt", "ge"}));
                        if (rnd.nextBoolean()) {
                            emit(Integer.toString(rnd.nextInt(5)));
                        } else {
                            emit("$" + intParam);
                        }
                    }
                    case 3 -> emit(pick(new String[] {"true", "false"}), "(", ")");
                    case 4 -> {
                        if (rnd.nextBoolean()) {
                            emit("$" + boolParam);
                        } else {
                            dataBool();
                        }
                    }
                    case 5 -> {
                        if (rnd.nextBoolean()) {
                            emit("$" + strParam, "=");
                            nodes(true);
                        } else {
                            dataBool();
                        }
                    }
                    case 6, 7 -> {
                        open(operand);
                        bool(true);
                        emit(rnd.nextBoolean() ? "and" : "or");
                        bool(true);
                        close(operand);
                    }
                    case 8 -> {
                        emit("not", "(");
                        bool(false);
                        emit(")");
                    }
                    case 9, 10 -> {
                        open(operand);
                        int mark = scope.size();
                        emit(rnd.nextBoolean() ? "every" : "some");
                        for (int k = rnd.nextInt(2); k >= 0; k--) {
                            String name = identifier();
                            emit("$" + name, "in");
                            Hint hint = nodes(false);
                            scope.add(new Var(name, hint));
                            if (k > 0) {
                                emit(",");
                            }
                        }
                        emit("satisfies");
                        bool(false);
                        scope.subList(mark, scope.size()).clear();
                        close(operand);
                    }
                    case 11 -> {
                        open(operand);
                        int mark = scope.size();
                        emit("let");
                        String name = identifier();
                        emit("$" + name, ":=");
                        scope.add(new Var(name, nodes(false)));
                        emit("return");
                        bool(false);
                        scope.subList(mark, scope.size()).clear();
                        close(operand);
                    }
                    case 12 -> {
                        open(operand);
                        emit("if", "(");
                        bool(false);
                        emit(")", "then");
                        bool(false);
                        emit("else");
                        bool(false);
                        close(operand);
                    }
                    default -> {
                        Var v = nodeVar();
                        if (v != null) {
                            emit("$" + v.name, rnd.nextBoolean() ? "=" : "!=");
                            nodes(true);
                        } else {
                            emit("exists", "(");
                            nodes(false);
                            emit(")");
                        }
                    }
                }
            } finally {
                depth--;
            }
        }

        /** Joins tokens with random whitespace and comments; words that would run together get a space. */
        private String spell(List<String> tokens, boolean xquery) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < tokens.size(); i++) {
                String t = tokens.get(i);
                if (i > 0) {
                    String prev = tokens.get(i - 1);
                    String sep = switch (rnd.nextInt(10)) {
                        case 0 -> " ";
                        case 1 -> "\n   ";
                        case 2 -> " (: " + identifier() + " (: nested :) :) ";
                        case 3 -> "\t";
                        default -> "";
                    };
                    if (sep.isEmpty() && (wordy(prev.charAt(prev.length() - 1)) && wordy(t.charAt(0))
                            || prev.equals("(") && t.startsWith(":") || prev.endsWith("'") && t.startsWith("'")
                            || prev.endsWith("\"") && t.startsWith("\""))) {
                        sep = " ";
                    }
                    sb.append(sep);
                }
                sb.append(t);
            }
            return sb.toString();
        }

        private static boolean wordy(char c) {
            return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == '$';
        }
    }

    /**
     * A datamodel as the runtime's is: a DOM document of {@code <data id>} elements, Saxon given
     * the element (wrapped with the queries' configuration), the compiled form a view of it.
     */
    static final class TestData implements DatamodelValues {
        private final XdmValue[] values;
        private final Item[] items;

        TestData(net.sf.saxon.Configuration config, List<String> ids, Map<String, Object> contents) throws Exception {
            org.w3c.dom.Document doc = javax.xml.parsers.DocumentBuilderFactory.newDefaultInstance().newDocumentBuilder()
                    .newDocument();
            org.w3c.dom.Element root = doc.createElementNS(null, "datamodel");
            doc.appendChild(root);
            net.sf.saxon.dom.DocumentWrapper wrapper = new net.sf.saxon.dom.DocumentWrapper(doc, null, config);
            values = new XdmValue[ids.size()];
            items = new Item[ids.size()];
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                Object c = contents.get(id);
                if (c == null) {
                    values[i] = net.sf.saxon.s9api.XdmEmptySequence.getInstance();
                    continue;
                }
                org.w3c.dom.Element e = doc.createElementNS(null, "data");
                e.setAttribute("id", id);
                root.appendChild(e);
                Number number = null;
                if (c instanceof String[] element) {
                    // element content: <data id><v>a</v><v>b</v></data>, string value "ab"
                    for (String part : element) {
                        org.w3c.dom.Element v = doc.createElementNS(null, "v");
                        v.setTextContent(part);
                        e.appendChild(v);
                    }
                } else {
                    String text = c instanceof Double d ? net.sf.saxon.value.DoubleValue.makeDoubleValue(d)
                            .getStringValue() : c.toString();
                    e.setTextContent(text);
                    number = c instanceof Number n ? n : null;
                }
                values[i] = new XdmNode(wrapper.wrap(e));
                items[i] = new Item(id, e, number);
            }
        }

        @Override
        public DatamodelItem item(int index) {
            return items[index];
        }

        @Override
        public XdmValue value(int index) {
            return values[index];
        }

        /** One variable: its element's text, and the number it was assigned as, if any. */
        static final class Item extends DatamodelItem {
            final String name;
            private final org.w3c.dom.Element element;
            private final Number number;

            Item(String name, org.w3c.dom.Element element, Number number) {
                this.name = name;
                this.element = element;
                this.number = number;
            }

            @Override
            public String text() {
                return element.getTextContent();
            }

            @Override
            public Number number() {
                return number;
            }
        }
    }
}
