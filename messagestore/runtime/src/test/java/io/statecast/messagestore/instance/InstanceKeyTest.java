package io.statecast.messagestore.instance;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.Scope;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.message.Origin;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstanceKeyTest {

    @Test
    void shouldKeyByScope() {
        var m = Messages.payload(5, 77, 3, 4, "x");
        assertEquals(InstanceKey.ofMessage(5, a(3), 77), InstanceKey.of(Scope.MESSAGE, m, a(9)));
        assertEquals(InstanceKey.ofFlow(5, a(3)), InstanceKey.of(Scope.FLOW, m, a(9)));
        assertEquals(Scope.FLOW, InstanceKey.of(Scope.FLOW, m, a(9)).scope());
        assertNotEquals(InstanceKey.ofMessage(5, a(3), 77), InstanceKey.ofMessage(6, a(3), 77));
        var plain = new io.statecast.overlay.message.OverlayMessage(io.statecast.overlay.message.DeliveryMode.FLOOD, 1,
                a(1), null, a(1), null, List.of());
        assertThrows(IllegalArgumentException.class, () -> InstanceKey.of(Scope.MESSAGE, plain, a(9)));
    }

    /**
     * Both message scopes key by the message's origin: its source, or the origin a control
     * message names. A control message forged with another origin reaches another instance.
     */
    @Test
    void shouldKeyAMessageByItsOrigin() {
        var payload = Messages.payload(5, 77, 3, 4, "x");
        InstanceKey k = InstanceKey.of(Scope.MESSAGE, payload, a(9));
        var ackFromChild = Messages.control(5, 2, 77, 6, 9, 6); // source: the child acknowledging
        assertNotEquals(k, InstanceKey.of(Scope.MESSAGE, ackFromChild, a(9)), "no origin named: the child's own message");
        assertEquals(k, InstanceKey.of(Scope.MESSAGE, Origin.attach(ackFromChild, a(3)), a(9)), "names the origin");
        assertNotEquals(k, InstanceKey.of(Scope.MESSAGE, Origin.attach(ackFromChild, a(8)), a(9)), "another origin");
        assertEquals(a(3), Origin.of(Origin.attach(ackFromChild, a(3))));
        assertEquals(a(6), Origin.of(ackFromChild));
    }

    @Test
    void shouldKeyByTheSourceInBothMessageScopes() {
        var fromA = Messages.payload(5, 77, 3, 4, "x");
        var fromB = Messages.payload(5, 77, 8, 4, "x");
        assertNotEquals(InstanceKey.of(Scope.MESSAGE, fromA, a(9)), InstanceKey.of(Scope.MESSAGE, fromB, a(9)));
        InstanceKey a = InstanceKey.of(Scope.MESSAGE_SOURCE, fromA, a(9));
        assertNotEquals(a, InstanceKey.of(Scope.MESSAGE_SOURCE, fromB, a(9)));
        assertEquals(77, a.messageId());
        assertEquals(a, InstanceKey.of(Scope.MESSAGE_SOURCE, Messages.payload(5, 77, 3, 6, "y"), a(9)),
                "another copy of the same message (other previous hop) is the same instance");
        assertNotEquals(a.tombstoneId(), InstanceKey.of(Scope.MESSAGE_SOURCE, fromB, a(9)).tombstoneId());
    }

    @Test
    void shouldKeyByDestinationElseTheTreesRoot() {
        var toB = Messages.unicastPayload(5, 1, 3, 8, 3, "x");
        var toBFromC = Messages.unicastPayload(5, 2, 6, 8, 6, "x");
        assertEquals(InstanceKey.of(Scope.FLOW_DESTINATION, toB, a(9)), InstanceKey.of(Scope.FLOW_DESTINATION, toBFromC, a(9)));
        assertEquals(a(8), InstanceKey.of(Scope.FLOW_DESTINATION, toB, a(9)).address());
        var multicast = Messages.multicastControl(5, 2, 1, 3, 4, 3);
        assertEquals(a(4), InstanceKey.of(Scope.FLOW_DESTINATION, multicast, a(9)).address());
    }

    /**
     * A message from A to B and B's reply to A reach one instance on A, on B and on a node C
     * between them; a third party's message to B does not; a multicast counts the node itself.
     */
    @Test
    void shouldPutBothDirectionsOfAConversationInOneInstanceOnEveryNode() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        java.util.Random random = new java.util.Random(seed);
        for (int i = 0; i < 1000; i++) {
            long x = random.nextLong();
            long y = random.nextLong();
            long third = random.nextLong();
            if (x == y || third == x || third == y) {
                continue;
            }
            var request = Messages.unicastPayload(5, random.nextLong(), x, y, x, "q");
            var reply = Messages.control(5, 2, random.nextLong(), y, x, y);
            for (long node : new long[] {x, y, random.nextLong()}) {
                InstanceKey k = InstanceKey.of(Scope.FLOW_PEER, request, a(node));
                assertEquals(k, InstanceKey.of(Scope.FLOW_PEER, reply, a(node)), "seed=" + seed + ", node " + node);
                assertEquals(k.spread(), InstanceKey.of(Scope.FLOW_PEER, reply, a(node)).spread(), "same shard, seed=" + seed);
                assertNotEquals(k, InstanceKey.of(Scope.FLOW_PEER, Messages.unicastPayload(5, 1, third, y, third, "q"),
                        a(node)), "seed=" + seed);
            }
            // a multicast from x seen on y is the conversation {x, y}, as y's unicast reply to x
            var multicast = Messages.payload(5, 1, x, x, "m");
            assertEquals(InstanceKey.of(Scope.FLOW_PEER, reply, a(y)), InstanceKey.of(Scope.FLOW_PEER, multicast, a(y)),
                    "seed=" + seed);
        }
    }

    @Test
    void shouldRefuseKeyPartsThatDoNotFitTheScope() {
        assertThrows(IllegalArgumentException.class, () -> new InstanceKey(Scope.FLOW, 1, 5, a(1), null));
        assertThrows(IllegalArgumentException.class, () -> new InstanceKey(Scope.MESSAGE, 1, 5, null, null));
        assertThrows(IllegalArgumentException.class, () -> new InstanceKey(Scope.FLOW_PEER, 1, 0, a(1), null));
        assertEquals(Scope.FLOW, Scope.ofLabel("flow-source"));
        assertEquals(null, Scope.ofLabel("peer"));
    }

    @Test
    void shouldSpreadConsecutiveIdsOverShards() {
        int shards = 4;
        int[] counts = new int[shards];
        for (long id = 0; id < 4000; id++) {
            counts[Math.floorMod(InstanceKey.ofMessage(1, a(3), id).spread(), shards)]++;
        }
        for (int c : counts) {
            assertTrue(c > 850 && c < 1150, java.util.Arrays.toString(counts));
        }
    }

    @Test
    void shouldKeyExpressionScopeByServiceAndValueOnly() {
        InstanceKey k = InstanceKey.ofExpression(5, "stream-7");
        assertEquals(k, InstanceKey.ofExpression(5, new String("stream-7")));
        assertEquals(k.hashCode(), InstanceKey.ofExpression(5, "stream-7").hashCode());
        assertEquals(k.spread(), InstanceKey.ofExpression(5, "stream-7").spread(), "same shard");
        assertNotEquals(k, InstanceKey.ofExpression(6, "stream-7"));
        assertNotEquals(k, InstanceKey.ofExpression(5, "stream-8"));
        assertNotEquals(InstanceKey.ofExpression(5, ""), InstanceKey.ofMessage(5, a(3), 0));
        assertTrue(!Scope.EXPRESSION.perMessage(), "no tombstones");
        assertEquals("service 5 key 'a\\u000ab'", InstanceKey.ofExpression(5, "a\nb").toString(),
                "a value from a message is printed without control characters");
        assertThrows(IllegalArgumentException.class, () -> new InstanceKey(Scope.EXPRESSION, 1, 0, null, null));
        assertThrows(IllegalArgumentException.class, () -> new InstanceKey(Scope.FLOW, 1, 0, a(1), null, "v"));
        assertThrows(IllegalArgumentException.class, () -> new InstanceKey(Scope.EXPRESSION, 1, 0, a(1), null, "v"));
        assertThrows(IllegalArgumentException.class,
                () -> InstanceKey.of(Scope.EXPRESSION, Messages.payload(5, 77, 3, 3, "x"), a(9)));
        assertEquals(Scope.EXPRESSION, Scope.ofLabel("expression"));
    }

    @Test
    void shouldKeyNodeScopeByTheServiceAlone() {
        InstanceKey k = InstanceKey.ofService(5);
        assertEquals(k, InstanceKey.of(Scope.NODE, Messages.payload(5, 77, 3, 3, "x"), a(9)), "any source");
        assertEquals(k, InstanceKey.of(Scope.NODE, Messages.payload(5, 78, 4, 3, "y"), a(9)), "any message");
        assertEquals(k, InstanceKey.ofNode(Scope.NODE, 5, a(9)), "the node's own instance is the same one");
        assertNotEquals(k, InstanceKey.ofService(6));
        assertNotEquals(k, InstanceKey.ofExpression(5, ""));
        assertTrue(!Scope.NODE.perMessage(), "no tombstones");
        assertThrows(IllegalArgumentException.class, () -> new InstanceKey(Scope.NODE, 5, 0, a(1), null));
        assertThrows(IllegalArgumentException.class, () -> new InstanceKey(Scope.NODE, 5, 3, null, null));
        assertEquals(Scope.NODE, Scope.ofLabel("node"));
    }

    @Test
    void shouldSpreadExpressionKeysOverShards() {
        int shards = 4;
        int[] counts = new int[shards];
        for (int i = 0; i < 4000; i++) {
            counts[Math.floorMod(InstanceKey.ofExpression(1, "s" + i).spread(), shards)]++;
        }
        for (int c : counts) {
            assertTrue(c > 850 && c < 1150, java.util.Arrays.toString(counts));
        }
    }
}
