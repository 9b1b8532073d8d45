package io.statecast.messagestore.tools.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.tools.render.StateDiagram.Edge;
import io.statecast.messagestore.tools.render.StateDiagram.EdgeKind;
import io.statecast.messagestore.tools.render.StateDiagram.Node;
import io.statecast.messagestore.tools.render.StateDiagram.NodeKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the diagram of a spec contains, before layout: the blueprint's conventions. */
class StateDiagramTest {

    private static final StateDiagram H2H = StateDiagram.of(Fixtures.load(Fixtures.H2H));

    private static List<String> labels(StateDiagram d, String source) {
        return d.edges().stream().filter(e -> e.source().equals(source)).map(Edge::label).toList();
    }

    @Test
    void shouldLabelEachArcWithItsEventAndThePrimitivesItExecutes() {
        assertTrue(labels(H2H, "init").contains("payloadmessage / sendControlMessage(h2hackmessage), toApplication, "
                + "updateNodeInfo, setTimer(acktimeout), setTimer(maxacktimeout)"), labels(H2H, "init").toString());
        assertTrue(labels(H2H, "waitack").contains("resetmessage"));
        assertTrue(labels(H2H, "waitack").contains("allh2hackmessagesreceived / cancelTimer(acktimeout), "
                + "cancelTimer(maxacktimeout)"));
    }

    @Test
    void shouldPointAtTheInitialStateFromADotAndSendTerminatingArcsToATerminateMark() {
        Edge init = H2H.edges().get(0);
        assertEquals(EdgeKind.INITIAL, init.kind());
        assertEquals(NodeKind.INITIAL_MARK, H2H.node(init.source()).kind());
        assertEquals("init", init.target());
        Edge finalDelete = H2H.edges().stream().filter(e -> e.event().equals("finaldelete")).findFirst().orElseThrow();
        assertEquals(NodeKind.TERMINATE_MARK, H2H.node(finalDelete.target()).kind());
        assertEquals(List.of("terminate"), finalDelete.actions());
        long marks = H2H.nodes().stream().filter(n -> n.kind() == NodeKind.TERMINATE_MARK).count();
        assertEquals(3, marks, "init, done and reset each terminate");
    }

    @Test
    void shouldDrawTargetlessTransitionsAsSelfLoopsAndCompositeEventsApart() {
        long loops = H2H.edges().stream().filter(e -> e.source().equals(e.target())).count();
        assertEquals(8, loops);
        List<Edge> composite = H2H.edges().stream().filter(e -> e.kind() == EdgeKind.COMPOSITE).toList();
        assertEquals(1, composite.size());
        assertEquals("allh2hackmessagesreceived", composite.get(0).event());
        // one arc per transition, plus the initial arc
        assertEquals(20 + 1, H2H.edges().size());
    }

    @Test
    void shouldShowEntryActionsInTheStateAndNestCompoundStates() {
        Node reset = H2H.node("reset");
        assertEquals(List.of("sendControlMessage(resetmessage)", "setTimer(resettimeout)",
                "setTimer(maxresettimeout)"), reset.entry());
        StateDiagram d = StateDiagram.of(Fixtures.load(Fixtures.HIERARCHY));
        assertEquals("session", d.node("connecting").parent());
        assertTrue(d.node("active").parallel());
        assertEquals(NodeKind.FINAL, d.node("closed").kind());
        Edge inner = d.edges().stream().filter(e -> e.kind() == EdgeKind.INITIAL && e.target().equals("connecting"))
                .findFirst().orElseThrow();
        assertEquals("session", d.node(inner.source()).parent());
    }
}
