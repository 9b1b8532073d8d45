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
