package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Java fast path gives exactly what Saxon gives for the paths it recognises. */
class FastPathTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
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
    void shouldRecogniseOnlyTheBlueprintShapes() {
        assertNotNull(FastPath.of("/HistoryOfEvents/Event[@name='payloadmessage'][last()]/Message"));
        assertNotNull(FastPath.of(" //Event[ @name = \"a\" or @name='b' ] [ last() ]/Message/PreviousHopAddress "));
        assertEquals(List.of("resetmessage", "payloadmessage", "h2hackreqmessage"), FastPath.of(
                "/HistoryOfEvents/Event[@name='resetmessage' or @name='payloadmessage' or @name='h2hackreqmessage'][last()]/Message")
                .names());
        assertNull(FastPath.of("/HistoryOfEvents/Event[@name='a'][1]/Message"));
        assertNull(FastPath.of("/HistoryOfEvents/Event[@name='a'][last()]/Message/Unknown"));
        assertNull(FastPath.of("/HistoryOfEvents/Event[@name='a' and @time='1'][last()]/Message"));
        assertNull(FastPath.of("/HistoryOfEvents/Event[@name='a'][last()]/Message/SourceAddress/text()"));
        assertNull(FastPath.of("//Node[last()]/Children/LogicalAddress"));
        assertEquals(List.of("payloadmessage", "h2hackreqmessage", "resetmessage"), FastPath.of(
                "(/HistoryOfEvents/Event[@name='payloadmessage'][last()]/Message, "
                        + "/HistoryOfEvents/Event[@name='h2hackreqmessage' or @name='resetmessage'][last()]/Message)[1]").names());
        assertNull(FastPath.of("(//Event[@name='a'][last()]/Message, //Node[last()]/Parent)[1]"), "every alternative must be of the shape");
        assertNull(FastPath.of("(//Event[@name='a'][last()]/Message, //Event[@name='b'][last()]/Message)[2]"));
        assertNull(FastPath.of("(//Event[@name='a'][last()]/Message, //Event[@name='b'][last()]/Message)"));
    }

    @Test
    void shouldAgreeWithSaxonOnRandomHistories() throws Exception {
        Random rnd = new Random(SEED);
        String[] names = {"a", "b", "c"};
        String[] children = {"", "/MessageIdentifier", "/ServiceIdentifier", "/DeliveryMode", "/HopLimit",
                "/SourceAddress", "/DestinationAddress", "/PreviousHopAddress", "/RootAddress", "/MessageType",
                "/MessageKind", "/Payload"};
        String[] selectors = {"@name='a'", "@name='b'", "@name='a' or @name='c'", "@name=\"c\" or @name='b' or @name='a'"};
        QueryEvaluator saxon = new QueryEvaluator(EvaluationGuard.NONE);
        for (int round = 0; round < 60; round++) {
            History h = new History(1 + rnd.nextInt(12), HistoryNames.of(engine.processor().getUnderlyingConfiguration()));
            int n = rnd.nextInt(16);
            for (int i = 0; i < n; i++) {
                String name = names[rnd.nextInt(names.length)];
                if (rnd.nextInt(4) == 0) {
                    h.addTimerEvent(name, rnd.nextInt(5), i, true);
                } else {
                    h.addMessageEvent(name, randomMessage(rnd), i, true);
                }
                if (rnd.nextInt(6) == 0) {
                    h.addNodeRecord(new NodeSnapshot(new TreeAddress(1), new TreeAddress(2), null, List.of(), List.of()), i);
                }
            }
            for (String sel : selectors) {
                for (String child : children) {
                    String text = (rnd.nextBoolean() ? "/HistoryOfEvents/" : "//") + "Event[" + sel + "][last()]/Message"
                            + child;
                    if (rnd.nextInt(3) == 0) { // the first of two, either order
                        String other = "//Event[" + selectors[rnd.nextInt(selectors.length)] + "][last()]/Message"
                                + children[rnd.nextInt(children.length)];
                        text = rnd.nextBoolean() ? "(" + text + ", " + other + ")[1]" : "( " + other + "," + text + " ) [ 1 ]";
                    }
                    FastPath fast = FastPath.of(text);
                    assertNotNull(fast, text);
                    PathResult expected = saxon.evaluatePath(this, engine.compilePath(text, Set.of()), QueryBindings.NONE, h);
                    PathResult actual = fast.evaluate(h);
                    if (actual instanceof PathResult.Address ad) {
                        actual = new PathResult.Text(AttributeValues.text(ad.address())); // Saxon gives the text
                    }
                    String where = text + " on " + h.entries() + " (seed " + SEED + ")";
                    if (expected == null) {
                        assertNull(actual, where);
                    } else if (expected instanceof PathResult.Bytes b) {
                        assertArrayEquals(b.bytes(), ((PathResult.Bytes) actual).bytes(), where);
                    } else {
                        assertEquals(expected, actual, where);
                    }
                }
            }
        }
    }

    private static OverlayMessage randomMessage(Random rnd) {
        DeliveryMode mode = DeliveryMode.values()[rnd.nextInt(DeliveryMode.values().length)];
        List<Extension> ext = new ArrayList<>();
        ext.add(new FsmExtension(rnd.nextInt(5), (byte) rnd.nextInt(256), rnd.nextLong()));
        if (rnd.nextBoolean()) {
            byte[] p = new byte[rnd.nextInt(8)];
            rnd.nextBytes(p);
            ext.add(new PayloadExtension(p));
        }
        return new OverlayMessage(mode, rnd.nextInt(256), Messages.a(rnd.nextInt(9)),
                mode == DeliveryMode.UNICAST ? Messages.a(rnd.nextInt(9)) : null, Messages.a(rnd.nextInt(9)),
                rnd.nextBoolean() ? Messages.a(rnd.nextInt(9)) : null, ext);
    }
}
