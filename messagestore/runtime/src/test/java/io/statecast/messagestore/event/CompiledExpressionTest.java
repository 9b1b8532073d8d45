package io.statecast.messagestore.event;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The compiled subset: which texts compile, what they answer, and what is left to Saxon. */
class CompiledExpressionTest {

    /** h2h-ack's composite query as shipped. */
    private static final String H2H = """
            let $node := /HistoryOfEvents/Node[last()],
                $payload := /HistoryOfEvents/Event[@name = 'payloadmessage'][1]/Message,
                $expected := if ($payload/DeliveryMode = 'unicast') then $node/Parent/LogicalAddress
                             else $node/Children/LogicalAddress,
                $acked := /HistoryOfEvents/Event[@name = 'h2hackmessage']/Message/SourceAddress
            return exists($node) and (every $c in $expected satisfies $c = $acked)
            """;

    /** The same query renamed, commented and spaced otherwise. */
    private static final String H2H_RESPELLED = """
            (: who still owes us an acknowledgement? :)
            let $ here:=/HistoryOfEvents/Node[ last( ) ] , $first:=/ HistoryOfEvents / Event[ "data" = @name ][1] / Message,
            $waitingFor := if ($first/DeliveryMode="unicast")then$here/Parent/LogicalAddress else $here/Children/LogicalAddress
            , $answered := //Event[@name="ack" (: any spelling :)]/Message/SourceAddress
            return exists ($here)
               and (every $child in $waitingFor satisfies $child = $answered)""";

    /** h2h-ack's "who has not acknowledged" action XPath, respelled. */
    private static final String SILENT_RESPELLED = "let $n := //Node[last()], $p := //Event[@name='data'][1]/Message,"
            + " $e := if ($p/DeliveryMode = \"unicast\") then $n/Parent/LogicalAddress else $n/Children/LogicalAddress,"
            + " $a := //Event[@name='ack']/Message/SourceAddress return $e[not(. = $a)]";

    private static XQueryEngine engine;

    @BeforeAll
    static void start() {
        engine = new XQueryEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static History history() {
        return new History(64, HistoryNames.of(engine.processor().getUnderlyingConfiguration()));
    }

    @Test
    void shouldCompileARespelledAcknowledgementQueryAndAnswerLikeTheShippedOne() throws Exception {
        CompiledQuery shipped = engine.compileQuery(H2H, Set.of());
        CompiledQuery respelled = engine.compileQuery(H2H_RESPELLED, Set.of());
        assertNotNull(shipped.compiled(), CompiledExpression.outsideSubset(H2H, true, Set.of()));
        assertNotNull(respelled.compiled(), CompiledExpression.outsideSubset(H2H_RESPELLED, true, Set.of()));
        CompiledPath silent = engine.compilePath(SILENT_RESPELLED, Set.of("TimeoutACK"));
        assertNotNull(silent.compiled());

        OverlayMessage payload = Messages.payload(1, 42, 1, 1, "x");
        History h = history();
        History renamed = history();
        h.addMessageEvent("payloadmessage", payload, 1, true);
        renamed.addMessageEvent("data", payload, 1, true);
        for (History x : List.of(h, renamed)) {
            x.addNodeRecord(new NodeSnapshot(a(1), a(1), null, List.of(a(2), a(3)), List.of(a(2), a(3))), 2);
        }
        QueryEvaluator evaluator = new QueryEvaluator(EvaluationGuard.NONE);
        assertFalse(evaluator.evaluateQuery(this, shipped, QueryBindings.NONE, h));
        assertFalse(evaluator.evaluateQuery(this, respelled, QueryBindings.NONE, renamed));
        PathResult both = evaluator.evaluatePath(this, silent, QueryBindings.NONE, renamed);
        assertEquals(new PathResult.Texts(List.of("2", "3")), both);

        h.addMessageEvent("h2hackmessage", ack(2), 3, true);
        renamed.addMessageEvent("ack", ack(2), 3, true);
        assertFalse(evaluator.evaluateQuery(this, respelled, QueryBindings.NONE, renamed));
        assertEquals(new PathResult.Address(a(3)), evaluator.evaluatePath(this, silent, QueryBindings.NONE, renamed),
                "one address comes back as the address");

        h.addMessageEvent("h2hackmessage", ack(3), 4, true);
        renamed.addMessageEvent("ack", ack(3), 4, true);
        assertTrue(evaluator.evaluateQuery(this, shipped, QueryBindings.NONE, h));
        assertTrue(evaluator.evaluateQuery(this, respelled, QueryBindings.NONE, renamed));
        assertNull(evaluator.evaluatePath(this, silent, QueryBindings.NONE, renamed));
        assertEquals(0, evaluator.evaluations(), "nothing ran on Saxon");
    }

    private static OverlayMessage ack(long from) {
        return new OverlayMessage(DeliveryMode.UNICAST, 3, a(from), a(1), a(from), null,
                List.of(new FsmExtension(1, (byte) 2, 42)));
    }

    @Test
    void shouldAnswerTheBlueprintActionPathsFromTheEntries() throws Exception {
        History h = history();
        OverlayMessage p = Messages.payload(1, 42, 100, 5, "Hello");
        h.addMessageEvent("payloadmessage", p, 1000, true);
        h.addTimerEvent("acktimeout", 3, 1001, true);
        CompiledExpression last = CompiledExpression.compile(
                "/HistoryOfEvents/Event[@name='payloadmessage' or @name=\"acktimeout\"][last()]/Message", false, Set.of());
        assertNull(last.select(h, QueryBindings.NONE), "the last of those is a timer event: it has no Message");
        CompiledExpression first = CompiledExpression.compile(
                "( //Event[@name='other'][last()]/Message , //Event[@name='payloadmessage'][last()]/Message ) [1]", false,
                Set.of());
        assertSame(p, ((PathResult.Message) first.select(h, QueryBindings.NONE)).message());
        CompiledExpression hop = CompiledExpression.compile(
                "//Event[@name='payloadmessage'][last()]/Message/PreviousHopAddress", false, Set.of());
        assertEquals(new PathResult.Address(a(5)), hop.select(h, QueryBindings.NONE));
        CompiledExpression bytes = CompiledExpression.compile("//Event[1]/Message/Payload", false, Set.of());
        assertEquals("Hello", new String(((PathResult.Bytes) bytes.select(h, QueryBindings.NONE)).bytes()));
    }

    @Test
    void shouldKeepReturnedNodesWhenLaterEvaluationsReuseTheContext() throws Exception {
        // the evaluators reuse a per-thread context, its scratch item and per-variable items: a
        // value that was handed out must not change when the next evaluation runs
        History h = history();
        h.addMessageEvent("x", Messages.payload(1, 1, 10, 11, "a"), 1, true);
        h.addMessageEvent("x", Messages.payload(1, 2, 20, 21, "b"), 2, true);
        CompiledExpression firstHop = CompiledExpression.compile(
                "/HistoryOfEvents/Event[1]/Message/PreviousHopAddress", false, Set.of());
        CompiledExpression lastHop = CompiledExpression.compile(
                "/HistoryOfEvents/Event[last()]/Message/PreviousHopAddress", false, Set.of());
        List<Object> kept = firstHop.run(h, QueryBindings.NONE);
        assertEquals(List.of(text(21)), texts(h, lastHop.run(h, QueryBindings.NONE)));
        assertEquals(List.of(text(11)), texts(h, kept));

        // a let whose body returns its variables
        CompiledExpression pair = CompiledExpression.compile("let $a := /HistoryOfEvents/Event[1]/Message/SourceAddress,"
                + " $b := /HistoryOfEvents/Event[2]/Message/SourceAddress return ($a, $b)", false, Set.of());
        List<Object> ab = pair.run(h, QueryBindings.NONE);
        pair.run(h, QueryBindings.NONE);
        lastHop.run(h, QueryBindings.NONE);
        assertEquals(List.of(text(10), text(20)), texts(h, ab));
        // lets only consumed in the body: two lets' nodes compared, and the comparison's operands
        CompiledExpression differ = CompiledExpression.compile("let $a := /HistoryOfEvents/Event[1]/Message,"
                + " $b := /HistoryOfEvents/Event[last()]/Message return not($a/SourceAddress = $b/SourceAddress)"
                + " and $a/MessageIdentifier = '1' and $b/MessageIdentifier = '2'", true, Set.of());
        assertTrue(differ.isTrue(h, QueryBindings.NONE));
        CompiledExpression same = CompiledExpression.compile("/HistoryOfEvents/Event[1]/Message/SourceAddress"
                + " = /HistoryOfEvents/Event[last()]/Message/SourceAddress", true, Set.of());
        assertFalse(same.isTrue(h, QueryBindings.NONE));
    }

    @Test
    void shouldReadMessageFieldsWithoutSaxon() throws Exception {
        // the compiled view has <Fields>, in the document's order
        String fields = "/HistoryOfEvents/Event[@name='data'][last()]/Message/Fields/Field[@name='seq']";
        CompiledPath seq = engine.compilePath(fields, Set.of());
        assertNotNull(seq.compiled());
        History h = history();
        h.addMessageEvent("data", new OverlayMessage(DeliveryMode.UNICAST, 3, a(2), a(1), a(2), null, List.of(
                new FsmExtension(1, (byte) 2, 42), new io.statecast.overlay.message.FieldsExtension(
                        io.statecast.overlay.message.MessageFields.of(Map.of("seq",
                                new io.statecast.overlay.message.MessageField.Int(42)))))), 1, true);
        QueryEvaluator evaluator = new QueryEvaluator(EvaluationGuard.NONE);
        assertEquals(new PathResult.Text("42"), evaluator.evaluatePath(this, seq, QueryBindings.NONE, h));
        assertEquals(0, evaluator.evaluations(), "answered without Saxon");
    }

    private static String text(long address) {
        return AttributeValues.text(a(address));
    }

    private static List<String> texts(History h, List<Object> items) {
        return items.stream().map(i -> ((HistoryItem) i).stringValue(h)).toList();
    }

    @Test
    void shouldReadParametersByName() throws Exception {
        History h = history();
        for (int i = 0; i < 3; i++) {
            h.addMessageEvent("token", Messages.payload(1, i, 1, 1, "t"), i, true);
        }
        CompiledExpression q = CompiledExpression.compile(
                "declare variable $Size external; count(/HistoryOfEvents/Event[@name='token']) >= $Size", true, Set.of());
        assertTrue(q.isTrue(h, QueryBindings.of(Map.of("Size", 3L))));
        assertFalse(q.isTrue(h, QueryBindings.of(Map.of("Size", 4L))));
        CompiledExpression flag = CompiledExpression.compile("declare variable $All external; $All", true, Set.of());
        assertTrue(flag.isTrue(h, QueryBindings.of(Map.of("All", true))));
        assertThrows(EvaluationException.class, () -> flag.isTrue(h, QueryBindings.NONE), "an unbound parameter");
    }

    @Test
    void shouldRaiseXPathsDynamicErrors() {
        History h = history();
        h.addMessageEvent("a", Messages.payload(1, 1, 1, 1, "x"), 1, true);
        assertThrows(EvaluationException.class, () -> CompiledExpression.compile(
                "//Event/@name = 5", true, Set.of()).isTrue(h, QueryBindings.NONE),
                "an event name compared with a number is cast to one, and 'a' is not a number");
        assertThrows(EvaluationException.class,
                () -> CompiledExpression.compile("if (('a', 'b')) then 1 else 2", true, Set.of()).isTrue(h,
                        QueryBindings.NONE), "effective boolean value of two strings");
    }

    @Test
    void shouldStopARunawayEvaluationAsFatal() {
        History h = new History(400, HistoryNames.of(engine.processor().getUnderlyingConfiguration()));
        for (int i = 0; i < 400; i++) {
            h.addMessageEvent("e", Messages.payload(1, i, 1, 1, "x"), i, true);
        }
        // cubic in the history's nodes: far beyond the step budget, stopped instead of running for hours
        CompiledExpression cubic = CompiledExpression.compile(
                "some $a in //*, $b in //*, $c in //* satisfies false()", true, Set.of());
        EvaluationException e = assertThrows(EvaluationException.class, () -> cubic.isTrue(h, QueryBindings.NONE));
        assertTrue(e.fatal(), "a runaway expression quarantines its service: " + e.getMessage());
        // comparing the whole document's text with itself costs a pass per comparison
        CompiledExpression texts = CompiledExpression.compile(
                "every $a in //*, $b in //* satisfies ($a = $b or /HistoryOfEvents != $b)", true, Set.of());
        assertTrue(assertThrows(EvaluationException.class, () -> texts.isTrue(h, QueryBindings.NONE)).fatal());
        // one pass over the same history is nowhere near it
        CompiledExpression linear = CompiledExpression.compile("count(//Event[@name='e']/Message) = 400", true, Set.of());
        assertDoesNotThrow(() -> assertTrue(linear.isTrue(h, QueryBindings.NONE)));
    }

    @Test
    void shouldLeaveEverythingOutsideTheSubsetToSaxon() {
        for (String text : List.of("sum(//HopLimit)", "count(//Event) + 1", "for $e in //Event return $e",
                "//Event/..", "//Message/SourceAddress/text()", "//Event[1.5]", "xs:integer(//HopLimit)",
                "//Event intersect //Event", "1 to 3", "string(//Event[1]/@name)", "$undeclared",
                "declare function local:f() { 1 }; local:f()", "//following-sibling::Event")) {
            assertNull(CompiledExpression.compile(text, true, Set.of()), text);
            assertNotNull(CompiledExpression.outsideSubset(text, true, Set.of()), text);
        }
        assertNull(CompiledExpression.outsideSubset("(: c (: nested :) :) //Event[@name='a']", true, Set.of()));
    }
}
