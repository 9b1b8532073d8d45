package io.statecast.messagestore.event;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.message.OverlayMessage;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import net.sf.saxon.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The incrementally built history document answers the blueprint's paths like a parsed XML document would. */
class HistoryDocumentTest {

    private static XQueryEngine engine;
    private static Configuration config;
    private final QueryEvaluator evaluator = new QueryEvaluator(EvaluationGuard.NONE);

    @BeforeAll
    static void start() {
        engine = new XQueryEngine();
        config = engine.processor().getUnderlyingConfiguration();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    /** Evaluated by Saxon on the document (this test is about the document), even when the subset would compile it. */
    private PathResult path(History h, String xpath) throws Exception {
        CompiledPath c = engine.compilePath(xpath, Set.of());
        return evaluator.evaluatePath(this, new CompiledPath(c.text(), c.executable(), c.reads(), null),
                QueryBindings.NONE, h);
    }

    private String text(History h, String xpath) throws Exception {
        PathResult r = path(h, xpath);
        // several values: an action reads the first (a destination sends to each)
        return r == null ? null : r instanceof PathResult.Texts ts ? ts.first() : ((PathResult.Text) r).text();
    }

    private boolean query(History h, String xquery) throws Exception {
        CompiledQuery c = engine.compileQuery(xquery, Set.of());
        return evaluator.evaluateQuery(this, new CompiledQuery(c.text(), c.executable(), c.reads(), c.parameters(), null),
                QueryBindings.NONE, h);
    }

    private static NodeSnapshot node(long self, long parent, long... children) {
        return new NodeSnapshot(a(self), a(100), a(parent),
                java.util.Arrays.stream(children).mapToObj(Messages::a).toList(), List.of(a(parent), a(7)));
    }

    @Test
    void shouldAnswerTheBlueprintPathsOverAnIncrementallyBuiltDocument() throws Exception {
        History h = new History(64, HistoryNames.of(config));
        OverlayMessage p = Messages.payload(1, 42, 100, 5, "Hello World");
        h.addMessageEvent("payloadmessage", p, 1000, true);
        h.addNodeRecord(node(9, 5, 2, 3), 1001);
        var doc = h.document();

        PathResult m = path(h, "/HistoryOfEvents/Event[@name='payloadmessage'][last()]/Message");
        assertSame(p, ((PathResult.Message) m).message());
        assertEquals("5", text(h, "/HistoryOfEvents/Event[@name='payloadmessage'][last()]/Message/PreviousHopAddress"));
        assertEquals("128", text(h, "/HistoryOfEvents/Event[@name='payloadmessage']/Message/MessageType"));
        assertEquals("multicast", text(h, "//Event/Message/DeliveryMode"));
        assertEquals("100", text(h, "//Message/RootAddress"));
        assertEquals("data", text(h, "//Message/MessageKind"));
        assertNull(path(h, "//Message/DestinationAddress"), "multicast has no destination");
        assertArrayEquals("Hello World".getBytes(StandardCharsets.UTF_8),
                ((PathResult.Bytes) path(h, "//Event[1]/Message/Payload")).bytes());
        assertEquals(Base64.getEncoder().encodeToString("Hello World".getBytes(StandardCharsets.UTF_8)),
                text(h, "string(//Payload)"));
        assertEquals("1000", text(h, "string(/HistoryOfEvents/Event/@time)"));
        assertEquals("2", text(h, "//Node[last()]/Children/LogicalAddress"));
        assertEquals(List.of("2", "3"), ((PathResult.Texts) path(h, "//Node[last()]/Children/LogicalAddress")).texts(),
                "several values are kept, in document order");
        assertEquals("2", text(h, "count(//Node[last()]/Children/LogicalAddress)"));
        assertEquals("5", text(h, "//Node/Parent/LogicalAddress"));
        assertEquals("9", text(h, "string(/HistoryOfEvents/Node/LogicalAddress)"));
        assertEquals("HistoryOfEvents", text(h, "name(/*)"));
        assertEquals("Node", text(h, "name(/HistoryOfEvents/Event/following-sibling::*)"));
        assertEquals("Event", text(h, "name(//Node/preceding-sibling::*[1])"));
        assertEquals("payloadmessage", text(h, "string(//LogicalAddress[. = '3']/ancestor::HistoryOfEvents/Event/@name)"));
        assertEquals("true", text(h, "string(//Node/Children/LogicalAddress[1] << //Node/Children/LogicalAddress[2])"));
        assertEquals("true", text(h, "string(//Event << //Node)"));
        assertEquals("true", text(h, "string(//Event/@name/.. is //Event)"));
        assertEquals("10", text(h, "string(count(//Event/Message/*))"), "no DestinationAddress in a multicast");

        OverlayMessage ack = Messages.control(1, 2, 42, 2, 9, 2);
        assertFalse(query(h, BLUEPRINT_COMPOSITE), "no child acknowledged yet");
        h.addMessageEvent("h2hackmessage", ack, 1002, true);
        assertFalse(query(h, BLUEPRINT_COMPOSITE), "one of two children acknowledged");
        h.addMessageEvent("h2hackmessage", Messages.control(1, 2, 42, 3, 9, 3), 1003, true);
        assertTrue(query(h, BLUEPRINT_COMPOSITE), "both children acknowledged");
        assertSame(doc, h.document(), "the document grows in place; it is never rebuilt");
        assertEquals("3", text(h, "string(count(/HistoryOfEvents/Event))"));
        assertEquals("unicast", text(h, "/HistoryOfEvents/Event[@name='h2hackmessage'][last()]/Message/DeliveryMode"));
        assertEquals("9", text(h, "/HistoryOfEvents/Event[@name='h2hackmessage'][1]/Message/DestinationAddress"));
        assertEquals("control", text(h, "/HistoryOfEvents/Event[last()]/Message/MessageKind"));
        assertNull(path(h, "/HistoryOfEvents/Event[last()]/Message/Payload"));
    }

    static final String BLUEPRINT_COMPOSITE = """
            let $x := //Node[last()]/Children/LogicalAddress,
                $y := //Event[@name="h2hackmessage"]/Message/SourceAddress
            for $i in $x return
              if ($i = $y) then <out>true</out> else <out>false</out>""";

    @Test
    void shouldRecordTimerEventsAndCopyHistoryNodesIntoConstructedResults() throws Exception {
        History h = new History(8, HistoryNames.of(config));
        h.addTimerEvent("acktimeout", 3, 5000, true);
        assertEquals("3", text(h, "/HistoryOfEvents/Event[@name='acktimeout'][last()]/Timer/TimerIdentifier"));
        assertNull(path(h, "/HistoryOfEvents/Event[@name='acktimeout'][last()]/Message"), "a timer event has no message");
        assertTrue(query(h, "<r>{/HistoryOfEvents/Event}</r>/Event/Timer/TimerIdentifier = 3"));
        assertTrue(query(h, "deep-equal(/HistoryOfEvents/Event/Timer, <Timer><TimerIdentifier>3</TimerIdentifier></Timer>)"));
    }

    @Test
    void shouldLeaveEventsNoExpressionReadsOutOfTheDocument() throws Exception {
        History h = new History(8, HistoryNames.of(config));
        h.addMessageEvent("unread", Messages.payload(1, 1, 1, 1, "x"), 1, false);
        h.addMessageEvent("read", Messages.payload(1, 2, 1, 1, "y"), 2, true);
        assertEquals(2, h.size());
        assertEquals("1", text(h, "string(count(//Event))"));
        assertEquals("read", text(h, "string(//Event/@name)"));
    }

    @Test
    void shouldEvictTheOldestEntriesFromBothViewsAndCountThem() throws Exception {
        History h = new History(3, HistoryNames.of(config));
        for (int i = 1; i <= 5; i++) {
            h.addMessageEvent("e", Messages.payload(1, i, 1, 1, "p" + i), i, true);
        }
        assertEquals(3, h.size());
        assertEquals(2, h.evicted());
        assertEquals("3", text(h, "string(count(//Event))"));
        assertEquals("3", text(h, "/HistoryOfEvents/Event[1]/Message/MessageIdentifier"));
        assertEquals("5", text(h, "/HistoryOfEvents/Event[@name='e'][last()]/Message/MessageIdentifier"));
        assertEquals(3, ((HistoryEntry.MessageEvent) h.entries().get(0)).message().fsm().messageId());
    }

    @Test
    void shouldBuildNoXmlForSpecsWithoutExpressions() {
        History h = new History(4, null);
        h.addMessageEvent("e", Messages.payload(1, 1, 1, 1, "x"), 1, true);
        assertNull(h.document());
        assertNotNull(h.lastEvent(new String[] {"e"}));
        assertInstanceOf(HistoryEntry.MessageEvent.class, h.entries().get(0));
    }
}
