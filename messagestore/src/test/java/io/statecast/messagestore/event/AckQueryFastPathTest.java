package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
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

/** The acknowledgement query's Java evaluation gives exactly what Saxon gives. */
class AckQueryFastPathTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    /** As services/h2h-ack.scxml writes it. */
    static final String H2H = """
            let $node := /HistoryOfEvents/Node[last()],
                $payload := /HistoryOfEvents/Event[@name = 'payloadmessage'][1]/Message,
                $expected := if ($payload/DeliveryMode = 'unicast') then $node/Parent/LogicalAddress
                             else $node/Children/LogicalAddress,
                $acked := /HistoryOfEvents/Event[@name = 'h2hackmessage']/Message/SourceAddress
            return exists($node) and (every $c in $expected satisfies $c = $acked)
            """;
    /** As services/e2e-ack.scxml writes it. */
    static final String E2E = """
            let $node := /HistoryOfEvents/Node[last()],
                $acked := /HistoryOfEvents/Event[@name = 'fullackmessage']/Message/SourceAddress
            return exists($node) and (every $c in $node/Children/LogicalAddress satisfies $c = $acked)
            """;

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
    void shouldRecogniseOnlyTheAcknowledgementShapes() throws Exception {
        assertNotNull(AckQueryFastPath.of(H2H));
        assertNotNull(AckQueryFastPath.of(E2E));
        assertNotNull(AckQueryFastPath.of(E2E.replace("'fullackmessage'", "\"fullackmessage\"").replace("\n", " ")));
        assertNull(AckQueryFastPath.of(E2E.replace("every", "some")));
        assertNull(AckQueryFastPath.of(E2E.replace("Children", "Neighbours")));
        assertNull(AckQueryFastPath.of(E2E.replace("SourceAddress", "PreviousHopAddress")));
        assertNull(AckQueryFastPath.of(H2H.replace("[1]", "[last()]")));
        assertNull(AckQueryFastPath.of("(: note :) " + E2E));
        assertNull(AckQueryFastPath.of("declare variable $x external; " + E2E));
        assertNotNull(engine.compileQuery(H2H, Set.of()).fastPath(), "a compiled query carries its fast path");
        assertNull(engine.compileQuery("exists(//Node)", Set.of()).fastPath());
    }

    @Test
    void shouldAgreeWithSaxonOnRandomHistories() throws Exception {
        Random rnd = new Random(SEED);
        QueryEvaluator saxon = new QueryEvaluator(EvaluationGuard.NONE);
        int truths = 0;
        for (String text : List.of(H2H, E2E)) {
            CompiledQuery compiled = engine.compileQuery(text, Set.of());
            AckQueryFastPath fast = compiled.fastPath();
            CompiledQuery bySaxon = new CompiledQuery(compiled.text(), compiled.executable(), compiled.reads(),
                    compiled.parameters(), null);
            for (int round = 0; round < 400; round++) {
                History h = randomHistory(rnd, 8);
                boolean expected = saxon.evaluateQuery(this, bySaxon, QueryBindings.NONE, h);
                truths += expected ? 1 : 0;
                assertEquals(expected, fast.evaluate(h), text + " on " + h.entries() + " (seed " + SEED + ")");
            }
        }
        assertTrue(truths > 20, "the random histories should make the query true often enough, were " + truths
                + " (seed " + SEED + ")");
    }

    /** As the services' ACK Requests select their destinations: the expected nodes that have not acknowledged. */
    static final String H2H_SILENT = H2H.replace("return exists($node) and (every $c in $expected satisfies $c = $acked)",
            "return $expected[not(. = $acked)]");
    static final String E2E_SILENT = E2E.replace(
            "return exists($node) and (every $c in $node/Children/LogicalAddress satisfies $c = $acked)",
            "return $node/Children/LogicalAddress[not(. = $acked)]");

    @Test
    void shouldRecogniseOnlyTheSilentNodeShapes() {
        assertNotNull(FastPath.of(H2H_SILENT), H2H_SILENT);
        assertNotNull(FastPath.of(E2E_SILENT.replace("\n", " ")), E2E_SILENT);
        assertNull(AckQueryFastPath.of(H2H_SILENT), "not a composite query");
        assertNull(AckQueryFastPath.silentOf(H2H), "not a selection");
        assertNull(FastPath.of(E2E_SILENT.replace("not(. = $acked)", ". = $acked")));
        assertNull(FastPath.of(E2E_SILENT.replace("Children", "Neighbours")));
        assertNull(FastPath.of(H2H_SILENT.replace("[1]", "[last()]")));
    }

    @Test
    void silentNodesShouldAgreeWithSaxonOnRandomHistories() throws Exception {
        Random rnd = new Random(SEED);
        QueryEvaluator saxon = new QueryEvaluator(EvaluationGuard.NONE);
        int several = 0;
        for (String text : List.of(H2H_SILENT, E2E_SILENT)) {
            CompiledPath compiled = engine.compilePath(text, Set.of());
            FastPath fast = FastPath.of(text);
            for (int round = 0; round < 400; round++) {
                History h = randomHistory(rnd, 6);
                PathResult expected = saxon.evaluatePath(this, compiled, QueryBindings.NONE, h);
                PathResult actual = fast.evaluate(h);
                if (actual instanceof PathResult.Address ad) {
                    actual = new PathResult.Text(AttributeValues.text(ad.address())); // Saxon gives the text
                }
                several += expected instanceof PathResult.Texts ? 1 : 0;
                assertEquals(expected, actual, text + " on " + h.entries() + " (seed " + SEED + ")");
            }
        }
        assertTrue(several > 20, "the random histories should leave several nodes silent often enough, did "
                + several + " times (seed " + SEED + ")");
    }

    private static NodeSnapshot randomNode(Random rnd) {
        List<LogicalAddress> children = new ArrayList<>();
        for (int i = rnd.nextInt(3); i > 0; i--) {
            children.add(Messages.a(rnd.nextInt(4)));
        }
        return new NodeSnapshot(Messages.a(9), Messages.a(1), rnd.nextBoolean() ? Messages.a(rnd.nextInt(4)) : null,
                children, List.of());
    }

    private static OverlayMessage randomMessage(Random rnd) {
        DeliveryMode mode = rnd.nextBoolean() ? DeliveryMode.UNICAST : DeliveryMode.MULTICAST;
        return new OverlayMessage(mode, 8, Messages.a(rnd.nextInt(4)), mode == DeliveryMode.UNICAST ? Messages.a(5) : null,
                Messages.a(rnd.nextInt(4)), null, List.of(new FsmExtension(1, (byte) 2, rnd.nextInt(3)),
                        new PayloadExtension(new byte[] {1})));
    }

    /**
     * Up to 13 events of the ACK services' names: node records and timers one in {@code kinds}
     * each, messages the rest; one message in five without XML, which Saxon cannot see and the
     * fast path must skip too.
     */
    private History randomHistory(Random rnd, int kinds) {
        String[] names = {"payloadmessage", "h2hackmessage", "fullackmessage", "other"};
        History h = new History(1 + rnd.nextInt(12), HistoryNames.of(engine.processor().getUnderlyingConfiguration()));
        int n = rnd.nextInt(14);
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(kinds);
            if (kind == 0) {
                h.addNodeRecord(randomNode(rnd), i);
            } else if (kind == 1) {
                h.addTimerEvent(names[rnd.nextInt(names.length)], rnd.nextInt(5), i, rnd.nextBoolean());
            } else {
                h.addMessageEvent(names[rnd.nextInt(names.length)], randomMessage(rnd), i, rnd.nextInt(5) != 0);
            }
        }
        return h;
    }
}
