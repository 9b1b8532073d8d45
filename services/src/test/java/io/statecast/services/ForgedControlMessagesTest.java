package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.Origin;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.services.testing.SimCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Forged acknowledgements cannot stop messages (issue #31): h2h-ack on a chain 0 → 1 → 2, the
 * relay (node 1) flooded with ACKs for MessageIDs that are about to come. Before, an ACK for a
 * message the relay had never seen created its instance, which ended at once and left a
 * tombstone; the real payload was then refused as a late duplicate, and never delivered: 1,000
 * forged ACKs for a random start plus a counter made exactly 1,000 messages disappear.
 *
 * <p>The forged ACKs reach node 1's MessageStore as frames from the network do: from a member
 * (node 2, the child that would acknowledge), so nothing in the frame gives them away.
 */
class ForgedControlMessagesTest {

    private static final int SERVICE = H2hAckTest.SERVICE;
    private static final byte ACK = H2hAckTest.ACK;

    /** An H2H ACK from node 2 to node 1 about the message ({@code origin}, {@code id}). */
    private static OverlayMessage forgedAck(SimCluster c, long id, LogicalAddress origin) {
        OverlayMessage m = new OverlayMessage(DeliveryMode.UNICAST, 1, c.address(2), c.address(1), c.address(2), null,
                List.<Extension>of(new FsmExtension(SERVICE, ACK, id)));
        return origin == null ? m : Origin.attach(m, origin);
    }

    /**
     * The worst case: the attacker knows the exact MessageIDs of the next 1,000 messages and names
     * their true origin. No ACK creates an instance (an ACK is about a message; only a payload or
     * an ACK Request creates h2h-ack's), so none leaves a tombstone, and every message arrives.
     */
    @Test
    void forgedAcksForTheExactIdsOfComingMessagesShouldStopNone() throws Exception {
        try (SimCluster c = SimCluster.chain(3).service("h2h-ack").build()) {
            int n = 1000;
            Random random = new Random(c.seed());
            List<OverlayMessage> coming = new ArrayList<>();
            Map<Long, Integer> hashes = new HashMap<>();
            for (int k = 0; k < n; k++) {
                byte[] payload = new byte[1024];
                random.nextBytes(payload);
                OverlayMessage m = c.socket(0).createMessage(DeliveryMode.MULTICAST, null, payload, SERVICE);
                coming.add(m);
                hashes.put(m.fsm().messageId(), java.util.Arrays.hashCode(payload));
            }
            MessageStore relay = c.store(1);
            for (OverlayMessage m : coming) {
                relay.receiveMessage(forgedAck(c, m.fsm().messageId(), c.address(0)), Arrival.DELIVERED);
            }
            c.await(() -> c.metrics(1).node().drops(DropReason.NO_INSTANCE) == n, Duration.ofSeconds(10),
                    () -> "node 1 drops every forged ACK as NO_INSTANCE; " + c.describe());
            assertEquals(0, c.metrics(1).node().created(), "no forged ACK created an instance; " + c.describe());
            assertEquals(0, c.metrics(1).node().drops(DropReason.TERMINATED_INSTANCE), c.describe());

            for (OverlayMessage m : coming) {
                c.socket(0).send(m);
                c.advance(Traffic.GAP);
            }
            c.await(() -> Traffic.distinct(c, 1) == n && Traffic.distinct(c, 2) == n, Duration.ofSeconds(60),
                    () -> "all " + n + " messages at nodes 1 and 2; seed " + c.seed() + "; " + c.describe());
            Traffic.Sent sent = new Traffic.Sent(hashes);
            Traffic.assertExactlyOnce(c, 1, 0, sent);
            Traffic.assertExactlyOnce(c, 2, 0, sent);
            assertEquals(0, c.metrics(1).node().drops(DropReason.TERMINATED_INSTANCE), c.describe());
        }
    }

    /**
     * The attack as reported: one captured frame, and ACKs for the MessageIDs a counter would
     * give next. The IDs are enciphered, so none of the guesses is a real ID; and an ACK naming
     * another origin (here the forger itself, as a frame without an origin extension does) could
     * not reach a real message's instance anyway.
     */
    @Test
    void acksForTheIdsACounterWouldGiveNextShouldMissEveryMessage() throws Exception {
        try (SimCluster c = SimCluster.chain(3).service("h2h-ack").build()) {
            Traffic.Sent first = Traffic.send(c, SERVICE, 0, DeliveryMode.MULTICAST, null, 1);
            c.await(() -> Traffic.distinct(c, 2) == 1, Duration.ofSeconds(10), () -> "the captured message; " + c.describe());
            long captured = c.deliveries(2).get(0).messageId();
            int n = 1000;
            Set<Long> guesses = new HashSet<>();
            MessageStore relay = c.store(1);
            for (int k = 1; k <= n; k++) {
                guesses.add(captured + k);
                relay.receiveMessage(forgedAck(c, captured + k, k % 2 == 0 ? c.address(0) : null), Arrival.DELIVERED);
            }
            Traffic.Sent sent = Traffic.send(c, SERVICE, 0, DeliveryMode.MULTICAST, null, n);
            c.await(() -> Traffic.distinct(c, 2) == n + 1, Duration.ofSeconds(60),
                    () -> "all " + (n + 1) + " messages at node 2; seed " + c.seed() + "; " + c.describe());
            Map<Long, Integer> all = new HashMap<>(first.hashes());
            all.putAll(sent.hashes());
            Traffic.assertExactlyOnce(c, 2, 0, new Traffic.Sent(all));
            for (long id : sent.hashes().keySet()) {
                assertFalse(guesses.contains(id), "MessageID " + id + " was guessed from " + captured + "; seed " + c.seed());
            }
            assertTrue(first.hashes().containsKey(captured));
            assertEquals(n, c.metrics(1).node().drops(DropReason.NO_INSTANCE), c.describe());
        }
    }
}
