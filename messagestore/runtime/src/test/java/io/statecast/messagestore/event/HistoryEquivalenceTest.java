package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FieldsExtension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.XPathCompiler;
import net.sf.saxon.s9api.XdmNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The incrementally built history answers every query exactly as the same document parsed into
 * an ordinary Saxon tree does: each random history is serialized, parsed back, and a set of
 * queries (descendant walks that the history prunes, sibling and ancestor axes, positions,
 * document order, string values) is evaluated on both.
 */
class HistoryEquivalenceTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static XQueryEngine engine;

    private static final String[] QUERIES = {
        "count(//Event)", "count(//Node)", "count(//*)", "count(//node())", "count(//text())", "count(//@*)",
        "string-join(//Event/@name, ',')", "string-join(//Node[last()]/Children/LogicalAddress, ',')",
        "string-join(//Event[@name='b']/Message/SourceAddress, ',')", "string(//Event[@name='a'][last()]/@time)",
        "count(//LogicalAddress)", "count(//Message/*)", "string-join(//Payload, '|')",
        "string-join(for $e in //Event return name($e/following-sibling::*[1]), ',')",
        "string-join(for $e in //Event return count($e/preceding-sibling::Node), ',')",
        "string-join(for $l in //LogicalAddress return name($l/ancestor::*[2]), ',')",
        "count(//Event[Message/MessageType = 128])", "count(//Timer/TimerIdentifier[. = 2])",
        "string(/)", "string-join(//Message/DestinationAddress, ',')", "count(//Children[LogicalAddress])",
        "string-join((//Event)[last()]/descendant::*/name(), ',')", "count(//Event[1]/Message/*[3]/preceding::*)",
        "count(//Node[1]/following::*)", "deep-equal(//Node[1], //Node[1])",
        "string-join(//Event[last()]/descendant-or-self::*/name(), ',')",
        "string-join(//Field/@name, ',')", "string-join(//Field, '|')", "count(//Fields/Field[@type = 'integer'])",
        "string-join(for $f in //Field return name($f/following::*[1]), ',')",
        "string-join(//Event/Message/Fields/Field[@name = 'seq'], ',')", "count(//Field/preceding-sibling::*)",
    };

    @BeforeAll
    static void start() {
        engine = new XQueryEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @Test
    void shouldAnswerLikeAParsedDocument() throws Exception {
        Random rnd = new Random(SEED);
        Processor p = engine.processor();
        XPathCompiler xp = p.newXPathCompiler();
        for (int round = 0; round < 40; round++) {
            // the lists' first length (an earlier instance's size) below, at or beyond the capacity
            History h = new History(1 + rnd.nextInt(10), HistoryNames.of(p.getUnderlyingConfiguration()), rnd.nextInt(16));
            for (int i = 0, n = rnd.nextInt(12); i < n; i++) {
                switch (rnd.nextInt(4)) {
                    case 0 -> h.addTimerEvent(rnd.nextBoolean() ? "a" : "t", rnd.nextInt(4), i, true);
                    case 1 -> h.addNodeRecord(new NodeSnapshot(new TreeAddress(1), new TreeAddress(9),
                            rnd.nextBoolean() ? new TreeAddress(7) : null, addresses(rnd), addresses(rnd)), i);
                    default -> h.addMessageEvent(rnd.nextBoolean() ? "a" : "b", message(rnd), i, rnd.nextInt(5) > 0);
                }
            }
            XdmNode ours = h.document();
            String xml = p.newSerializer().serializeNodeToString(ours);
            XdmNode parsed = p.newDocumentBuilder().build(new StreamSource(new StringReader(xml)));
            for (String q : QUERIES) {
                String expected = xp.evaluate(q, parsed).toString();
                String actual = xp.evaluate(q, ours).toString();
                assertEquals(expected, actual, q + " on " + xml + " (seed " + SEED + ")");
            }
        }
    }

    /**
     * A document built late (at a random point, or only at the end) answers every query, numbers
     * its nodes (generate-id without the document number) and flags its entries exactly as one
     * built before the first entry, through evictions and forgetEvents.
     */
    @Test
    void shouldAnswerTheSameWhetherTheDocumentIsBuiltFirstOrLate() throws Exception {
        Random rnd = new Random(SEED);
        Processor p = engine.processor();
        XPathCompiler xp = p.newXPathCompiler();
        String ids = "string-join(//node()/generate-id(), ',')";
        for (int round = 0; round < 60; round++) {
            int capacity = 1 + rnd.nextInt(10);
            History first = new History(capacity, HistoryNames.of(p.getUnderlyingConfiguration()));
            History late = new History(capacity, HistoryNames.of(p.getUnderlyingConfiguration()), rnd.nextInt(16));
            first.document();
            int n = rnd.nextInt(16);
            int buildAt = rnd.nextInt(n + 2);
            StringBuilder ops = new StringBuilder();
            for (int i = 0; i < n; i++) {
                if (i == buildAt) {
                    late.document();
                    ops.append("build;");
                }
                switch (rnd.nextInt(5)) {
                    case 0 -> {
                        String name = rnd.nextBoolean() ? "a" : "t";
                        int id = rnd.nextInt(4);
                        boolean xml = rnd.nextInt(4) > 0;
                        first.addTimerEvent(name, id, i, xml);
                        late.addTimerEvent(name, id, i, xml);
                        ops.append("timer ").append(name).append(xml ? "" : " no-xml").append(';');
                    }
                    case 1 -> {
                        NodeSnapshot node = new NodeSnapshot(new TreeAddress(1), new TreeAddress(9),
                                rnd.nextBoolean() ? new TreeAddress(7) : null, addresses(rnd), addresses(rnd));
                        first.addNodeRecord(node, i);
                        late.addNodeRecord(node, i);
                        ops.append("node;");
                    }
                    case 2 -> {
                        if (i > buildAt) {
                            String q = "//Event[@name='a'][1]/Message/SourceAddress | //Node[1]";
                            int a = first.forget(select(xp, q, first.document()));
                            int b = late.forget(select(xp, q, late.document()));
                            assertEquals(a, b, "forgot (seed " + SEED + ", " + ops + ")");
                            ops.append("forget ").append(a).append(';');
                        }
                    }
                    default -> {
                        String name = rnd.nextBoolean() ? "a" : "b";
                        OverlayMessage m = message(rnd);
                        boolean xml = rnd.nextInt(5) > 0;
                        first.addMessageEvent(name, m, i, xml);
                        late.addMessageEvent(name, m, i, xml);
                        ops.append("message ").append(name).append(xml ? "" : " no-xml").append(';');
                    }
                }
                String where = " (seed " + SEED + ", round " + round + ", " + ops + ")";
                assertEquals(first.entries(), late.entries(), "entries" + where);
                assertEquals(first.version(), late.version(), "version" + where);
                assertEquals(first.evicted(), late.evicted(), "evicted" + where);
                for (int e = 0; e < first.size(); e++) {
                    assertEquals(first.hasXml(e), late.hasXml(e), "hasXml(" + e + ")" + where);
                }
            }
            String where = " (seed " + SEED + ", round " + round + ", " + ops + ")";
            XdmNode a = first.document();
            XdmNode b = late.document();
            assertEquals(p.newSerializer().serializeNodeToString(a), p.newSerializer().serializeNodeToString(b),
                    "document" + where);
            for (String q : QUERIES) {
                assertEquals(xp.evaluate(q, a).toString(), xp.evaluate(q, b).toString(), q + where);
            }
            assertEquals(xp.evaluate(ids, a).toString().replaceAll("h\\d+n", "n"),
                    xp.evaluate(ids, b).toString().replaceAll("h\\d+n", "n"), "generate-id" + where);
        }
    }

    private static List<net.sf.saxon.om.NodeInfo> select(XPathCompiler xp, String q, XdmNode doc) throws Exception {
        List<net.sf.saxon.om.NodeInfo> out = new ArrayList<>();
        for (net.sf.saxon.s9api.XdmItem item : xp.evaluate(q, doc)) {
            out.add(((XdmNode) item).getUnderlyingNode());
        }
        return out;
    }

    private static List<io.statecast.overlay.address.LogicalAddress> addresses(Random rnd) {
        List<io.statecast.overlay.address.LogicalAddress> out = new ArrayList<>();
        for (int i = 0, n = rnd.nextInt(4); i < n; i++) {
            out.add(new TreeAddress(rnd.nextInt(20)));
        }
        return out;
    }

    private static OverlayMessage message(Random rnd) {
        DeliveryMode mode = DeliveryMode.values()[rnd.nextInt(3)];
        List<Extension> ext = new ArrayList<>();
        ext.add(new FsmExtension(1, (byte) (rnd.nextBoolean() ? 0x80 : rnd.nextInt(5)), rnd.nextInt(100)));
        if (rnd.nextBoolean()) {
            byte[] b = new byte[rnd.nextInt(6)];
            rnd.nextBytes(b);
            ext.add(new PayloadExtension(b));
        }
        if (rnd.nextBoolean()) {
            java.util.Map<String, MessageField> fields = new java.util.HashMap<>();
            String[] names = {"seq", "ack", "_w", "sack", "note", "blob"};
            for (int i = 0, n = 1 + rnd.nextInt(4); i < n; i++) {
                String name = names[rnd.nextInt(names.length)];
                fields.put(name, switch (rnd.nextInt(4)) {
                    case 0 -> new MessageField.Int(rnd.nextLong());
                    case 1 -> new MessageField.Text(rnd.nextBoolean() ? "" : "a <&> \u00e9 " + rnd.nextInt(9));
                    case 2 -> {
                        byte[] b = new byte[rnd.nextInt(5)];
                        rnd.nextBytes(b);
                        yield new MessageField.Bytes(b);
                    }
                    default -> MessageField.Ranges.of(List.of(new MessageField.Range(rnd.nextInt(5), 5 + rnd.nextInt(5)),
                            new MessageField.Range(12, 12 + rnd.nextInt(3))));
                });
            }
            ext.add(new FieldsExtension(MessageFields.of(fields)));
        }
        return new OverlayMessage(mode, rnd.nextInt(256), Messages.a(rnd.nextInt(9)),
                mode == DeliveryMode.UNICAST ? Messages.a(rnd.nextInt(9)) : null, Messages.a(rnd.nextInt(9)), null, ext);
    }
}
