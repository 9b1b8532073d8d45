package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.services.testing.SimCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** Application traffic for the service tests: 1 KB messages from one node, and what receivers got. */
final class Traffic {

    /** Virtual time between two sends of the source. */
    static final Duration GAP = Duration.ofMillis(2);

    private Traffic() {
    }

    /** What the source sent: MessageID → payload hash. */
    record Sent(Map<Long, Integer> hashes) {
    }

    /** Sends {@code n} messages of 1 KB of {@code service} from node {@code from}, one every {@link #GAP}. */
    static Sent send(SimCluster c, int service, int from, DeliveryMode mode, LogicalAddress to, int n) {
        Random random = new Random(c.seed() ^ 0x5eed);
        Map<Long, Integer> hashes = new HashMap<>();
        for (int k = 0; k < n; k++) {
            byte[] payload = new byte[1024];
            random.nextBytes(payload);
            OverlayMessage m = c.socket(from).createMessage(mode, to, payload, service);
            hashes.put(m.fsm().messageId(), java.util.Arrays.hashCode(payload));
            c.socket(from).send(m);
            c.advance(GAP);
        }
        return new Sent(hashes);
    }

    static int distinct(SimCluster c, int node) {
        Set<Long> ids = new HashSet<>();
        for (SimCluster.Delivery d : c.deliveries(node)) {
            ids.add(d.messageId());
        }
        return ids.size();
    }

    /** Node {@code node} delivered each sent message exactly once, intact, from {@code source}. */
    static void assertExactlyOnce(SimCluster c, int node, int source, Sent sent) {
        Map<Long, Integer> seen = new HashMap<>();
        for (SimCluster.Delivery d : c.deliveries(node)) {
            Integer before = seen.put(d.messageId(), d.payloadHash());
            assertEquals(null, before, () -> "node " + node + " delivered " + d.messageId() + " twice; " + c.describe());
            assertEquals(sent.hashes().get(d.messageId()), d.payloadHash(),
                    () -> "node " + node + " delivered " + d.messageId() + " intact; " + c.describe());
            assertEquals(1024, d.payloadLength(), () -> "node " + node + " delivered a payload; " + c.describe());
            assertEquals(c.address(source), d.source(), () -> "the original source is kept; " + c.describe());
        }
        assertEquals(sent.hashes().keySet(), seen.keySet(), () -> "node " + node + " got every message; " + c.describe());
    }

}
