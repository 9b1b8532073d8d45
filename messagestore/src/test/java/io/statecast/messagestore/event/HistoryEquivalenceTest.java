package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
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
            History h = new History(1 + rnd.nextInt(10), HistoryNames.of(p.getUnderlyingConfiguration()));
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
        return new OverlayMessage(mode, rnd.nextInt(256), Messages.a(rnd.nextInt(9)),
                mode == DeliveryMode.UNICAST ? Messages.a(rnd.nextInt(9)) : null, Messages.a(rnd.nextInt(9)), null, ext);
    }
}
