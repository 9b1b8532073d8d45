package io.statecast.messagestore.tools.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.message.DeliveryMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which messages the checker makes from a spec's filters. */
class AlphabetTest {

    private static List<String> labels(ServiceSpec spec, int peers) {
        return Alphabet.of(spec, AbstractNode.of(peers, Alphabet.family(spec))).stream().map(Input::label).toList();
    }

    @Test
    void shouldVaryTheModeOfPayloadsOnlyAndSendControlMessagesHopToHop() {
        ServiceSpec h2h = Specs.load("specs/blueprint-h2h.scxml");
        List<String> in = labels(h2h, 3);
        assertTrue(in.contains("payloadmessage from child2 (multicast)"), in.toString());
        assertTrue(in.contains("payloadmessage from parent (unicast)"), in.toString());
        assertTrue(in.contains("h2hackmessage from child1"), in.toString());
        assertFalse(in.stream().anyMatch(l -> l.startsWith("h2hack") && l.contains("(")), in.toString());
        for (Input.Arrival a : Alphabet.of(h2h, AbstractNode.of(3, Alphabet.family(h2h)))) {
            assertFalse(a.fires().isEmpty(), a.label());
            if (a.label().startsWith("h2hack")) {
                assertEquals(DeliveryMode.UNICAST, a.message().mode(), a.label());
            }
        }
    }

    @Test
    void shouldFeedAFlowThreeConsecutiveMessageIdsAndAMessageInstanceOne() {
        ServiceSpec flow = Specs.load("specs/flow-counter.scxml");
        List<Input.Arrival> in = Alphabet.of(flow, AbstractNode.of(3, Alphabet.family(flow)));
        assertEquals(List.of(Alphabet.MESSAGE_ID, Alphabet.MESSAGE_ID + 1, Alphabet.MESSAGE_ID + 2),
                in.stream().map(a -> a.message().fsm().messageId()).distinct().sorted().toList(),
                labels(flow, 3).toString());
        assertTrue(labels(flow, 3).contains("msg from child1 (id first+2)"), labels(flow, 3).toString());
        assertEquals(3 * 3, in.size(), "three peers, three identifiers: " + labels(flow, 3));
        ServiceSpec ack = Specs.load("check/clean-ack.scxml");
        assertEquals(List.of(Alphabet.MESSAGE_ID), Alphabet.of(ack, AbstractNode.of(3, Alphabet.family(ack))).stream()
                .map(a -> a.message().fsm().messageId()).distinct().toList(), "message scope: one instance, one id");
    }

    @Test
    void shouldMakeTheLocalApplicationsUnicastOncePerDestinationPeer() {
        ServiceSpec ack = Specs.load("check/clean-ack.scxml");
        List<String> in = labels(ack, 3);
        assertEquals(List.of("sent+data from local to parent", "sent+data from local to child1",
                "sent+data from local to child2", "data from parent", "data from child1", "data from child2",
                "ack from parent", "ack from child1", "ack from child2"), in);
        assertEquals(List.of("sent+data from local to parent", "data from parent", "ack from parent"),
                labels(ack, 1), "one peer: the parent");
        assertEquals(List.of("parent", "child1", "child2", "neighbour"),
                AbstractNode.of(4, Alphabet.family(ack)).peers().stream().map(AbstractNode.Peer::name).toList());
    }
}
