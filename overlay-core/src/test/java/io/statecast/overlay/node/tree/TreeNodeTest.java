package io.statecast.overlay.node.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.FloodId;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.tree.Cluster.Member;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The spanning-tree protocol on a simulated network with a virtual clock. */
class TreeNodeTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    private static Cluster converge(int n, int buddies, double loss, long withinMs) {
        Cluster c = new Cluster(SEED ^ (n * 31L + buddies));
        c.net.loss = loss;
        c.random(n, buddies);
        c.joinAll();
        assertTrue(c.clock.runUntil(c::converged, withinMs, 50), () -> "no convergence within " + withinMs + " ms: " + c.describe());
        return c;
    }

    private static OverlayMessage data(DeliveryMode mode, LogicalAddress source, LogicalAddress dest) {
        return new OverlayMessage(mode, 255, source, dest, source, null, List.of(new PayloadExtension(new byte[] {7})));
    }

    private static long transmissions(Cluster c) {
        return c.alive().stream().mapToLong(m -> m.engine.statistics().transmissions()).sum();
    }

    /** Routing properties for the tree rooted at {@code s}: every node reaches s through parents; children mirror parents. */
    private static void assertTreeRootedAt(Cluster c, Member s) {
        Map<Long, Member> alive = new HashMap<>();
        c.alive().forEach(m -> alive.put(m.id(), m));
        for (Member k : alive.values()) {
            Member at = k;
            int steps = 0;
            while (at != s) {
                LogicalAddress p = at.topology().parent(s.node.localAddress());
                assertNotNull(p, () -> "no parent toward " + s.id() + ": " + c.describe());
                Member next = alive.get(((TreeAddress) p).id());
                assertTrue(next.topology().children(s.node.localAddress()).contains(at.node.localAddress()),
                        () -> "children/parent mismatch: " + c.describe());
                at = next;
                assertTrue(++steps <= alive.size(), () -> "loop toward " + s.id() + ": " + c.describe());
            }
        }
        assertNull(s.topology().parent(s.node.localAddress()));
    }

    // ---------------------------------------------------------------------------------- convergence

    @Test
    void shouldBuildOneTreeRootedAtLargestIdWithTenNodes() {
        Cluster c = converge(10, 2, 0, 60_000);
        Member root = c.members.get(c.maxId());
        assertTrue(root.topology().leader());
        assertEquals(1, c.alive().stream().filter(m -> m.topology().leader()).count(), c.describe());
        for (Member s : c.alive()) {
            assertTreeRootedAt(c, s);
        }
    }

    @Test
    void shouldBuildOneTreeWithHundredNodes() {
        Cluster c = converge(100, 2, 0, 120_000);
        List<Member> all = c.alive();
        for (int i = 0; i < 10; i++) {
            assertTreeRootedAt(c, all.get(c.random.nextInt(all.size())));
        }
    }

    @Test
    void shouldConvergeDespiteTwentyPercentLossOfProtocolMessages() {
        Cluster c = converge(100, 3, 0.2, 300_000);
        assertTrue(c.net.lost > 0, "loss was injected");
        assertEquals(c.maxId(), c.alive().get(0).topology().rootId());
    }

    @Test
    void aloneNodeWithoutBuddiesIsStableLeaderAtOnce() {
        Cluster c = new Cluster(SEED);
        Member m = c.add(5, List.of());
        assertEquals(NodeState.STOPPED, m.node.state());
        m.node.join();
        c.clock.advanceMs(1);
        assertEquals(NodeState.STABLE, m.node.state());
        assertTrue(m.topology().leader());
        assertTrue(m.topology().neighbours().isEmpty());
    }

    @Test
    void nodeWhoseBuddiesAreAbsentKeepsJoiningAndRetries() {
        Cluster c = new Cluster(SEED);
        Member m = c.add(5, List.of(6L));
        m.node.join();
        c.clock.advanceMs(5_000);
        assertEquals(NodeState.JOINING, m.node.state());
        assertTrue(m.node.counters().get("rendezvousSent") >= 3, m.node.counters().toString());
        Member late = c.add(6, List.of());
        late.node.join();
        assertTrue(c.clock.runUntil(() -> m.node.state().connected(), 5_000, 10), c.describe());
        assertEquals(new TreeAddress(6), m.topology().treeParent());
    }

    // ---------------------------------------------------------------------------------- forwarding

    @Test
    void shouldMulticastFromSeveralSourcesToEveryNodeExactlyOnceWithNMinusOneTransmissions() {
        Cluster c = converge(40, 2, 0, 120_000);
        int n = c.alive().size();
        List<Member> all = c.alive();
        for (int i = 0; i < 5; i++) {
            Member src = all.get(c.random.nextInt(n));
            all.forEach(m -> m.delivered.clear());
            long before = transmissions(c);
            src.engine.send(data(DeliveryMode.MULTICAST, src.node.localAddress(), null));
            c.clock.advanceMs(200);
            assertEquals(n - 1, transmissions(c) - before, c.describe());
            for (Member m : all) {
                assertEquals(m == src ? 0 : 1, m.delivered.size(), () -> "node " + m.id() + " from " + src.id() + ": " + c.describe());
            }
        }
    }

    @Test
    void shouldFloodToEveryNodeOnceAndUnicastAlongTheTreePath() {
        Cluster c = converge(30, 2, 0, 120_000);
        List<Member> all = c.alive();
        Member src = all.get(c.random.nextInt(all.size()));
        src.engine.send(data(DeliveryMode.FLOOD, src.node.localAddress(), null));
        c.clock.advanceMs(200);
        for (Member m : all) {
            assertEquals(m == src ? 0 : 1, m.delivered.size(), c.describe());
            if (m != src) {
                assertTrue(FloodId.present(m.delivered.get(0)));
            }
        }
        for (int i = 0; i < 20; i++) {
            Member a = all.get(c.random.nextInt(all.size()));
            Member b = all.get(c.random.nextInt(all.size()));
            all.forEach(m -> m.delivered.clear());
            a.engine.send(data(DeliveryMode.UNICAST, a.node.localAddress(), b.node.localAddress()));
            c.clock.advanceMs(200);
            assertEquals(1, b.delivered.size(), () -> a.id() + " -> " + b.id() + ": " + c.describe());
            assertEquals(1, all.stream().mapToInt(m -> m.delivered.size()).sum());
        }
    }

    // ---------------------------------------------------------------------------------- churn

    @Test
    void shouldElectNextLargestIdAfterRootCrashes() {
        Cluster c = converge(30, 3, 0, 120_000);
        Member root = c.members.get(c.maxId());
        long crashedAt = c.clock.nowMs();
        c.crash(root);
        long timeout = c.settings.timeoutMs();
        assertTrue(c.clock.runUntil(c::converged, 4 * timeout, 50), () -> "no recovery: " + c.describe());
        assertTrue(c.clock.nowMs() - crashedAt >= timeout, "a silent crash is noticed only after the timeout");
        for (Member m : c.alive()) {
            assertFalse(m.topology().descendants().contains(root.id()), c.describe());
        }
        assertTreeRootedAt(c, c.alive().get(0));
    }

    @Test
    void shouldRepairQuicklyAfterGoodbye() {
        Cluster c = converge(30, 3, 0, 120_000);
        Member leaving = null;
        for (Member m : c.alive()) {
            if (!m.topology().leader() && m.topology().neighbours().size() >= 2 && stillConnectedWithout(c, m)) {
                leaving = m;
                break;
            }
        }
        assertNotNull(leaving, () -> "no inner node whose leave keeps the buddy mesh connected: " + c.describe());
        Member gone = leaving;
        gone.node.leave();
        c.clock.advanceMs(1);
        assertEquals(NodeState.STOPPED, gone.node.state());
        assertTrue(gone.topology().neighbours().isEmpty());
        c.crash(gone); // it is gone from the network too
        long leftAt = c.clock.nowMs();
        assertTrue(c.clock.runUntil(c::converged, 4 * c.settings.timeoutMs(), 10), c::describe);
        assertTrue(c.clock.nowMs() - leftAt < c.settings.timeoutMs(),
                () -> "repair after Goodbye took " + (c.clock.nowMs() - leftAt) + " ms: " + c.describe());
    }

    /** True if the buddy graph without {@code m} is connected (so the overlay can heal). */
    private static boolean stillConnectedWithout(Cluster c, Member m) {
        Map<Long, Set<Long>> g = new HashMap<>();
        for (Member x : c.alive()) {
            if (x == m) {
                continue;
            }
            for (long b : x.buddies) {
                if (b != m.id()) {
                    g.computeIfAbsent(x.id(), k -> new HashSet<>()).add(b);
                    g.computeIfAbsent(b, k -> new HashSet<>()).add(x.id());
                }
            }
        }
        Set<Long> seen = new HashSet<>();
        ArrayDeque<Long> todo = new ArrayDeque<>();
        long start = c.alive().stream().filter(x -> x != m).findFirst().orElseThrow().id();
        todo.add(start);
        seen.add(start);
        while (!todo.isEmpty()) {
            for (long n : g.getOrDefault(todo.poll(), Set.of())) {
                if (seen.add(n)) {
                    todo.add(n);
                }
            }
        }
        return seen.size() == c.alive().size() - 1;
    }

    @Test
    void shouldMergeTwoTreesOnceTheirPartitionHeals() {
        Cluster c = new Cluster(SEED);
        List<Long> a = List.of(10L, 11L, 12L, 13L);
        List<Long> b = List.of(20L, 21L, 22L, 23L);
        c.add(10, List.of());
        c.add(11, List.of(10L));
        c.add(12, List.of(11L));
        c.add(13, List.of(10L, 20L)); // a buddy across the partition
        c.add(20, List.of());
        c.add(21, List.of(20L));
        c.add(22, List.of(21L));
        c.add(23, List.of(20L));
        c.net.blocked = (x, y) -> a.stream().anyMatch(i -> Cluster.addressOf(i).equals(x)) != a.stream().anyMatch(i -> Cluster.addressOf(i).equals(y));
        c.joinAll();
        c.clock.advanceMs(10_000);
        assertEquals(13, c.members.get(10L).topology().rootId(), c.describe());
        assertEquals(23, c.members.get(20L).topology().rootId(), c.describe());
        assertTrue(b.size() == 4);
        c.net.blocked = (x, y) -> false;
        assertTrue(c.clock.runUntil(c::converged, 30_000, 50), c::describe);
        assertEquals(23, c.members.get(10L).topology().rootId());
    }

    // ---------------------------------------------------------------------------------- hostile input

    @Test
    void shouldDropAndCountMalformedProtocolMessages() {
        Cluster c = new Cluster(SEED);
        Member m = c.add(5, List.of());
        m.node.join();
        c.clock.advanceMs(1);
        m.node.onProtocolMessage(new ProtocolMessage(TreeMessages.BEACON, new byte[] {1, 0, 0}), Cluster.addressOf(9));
        m.node.onProtocolMessage(new ProtocolMessage(TreeMessages.GOODBYE, new byte[] {2, 0, 0, 0, 0, 0, 0, 0, 9}), Cluster.addressOf(9));
        m.node.onProtocolMessage(new ProtocolMessage(0x13, new byte[0]), Cluster.addressOf(9));
        c.clock.advanceMs(1);
        Map<String, Long> counters = m.node.counters();
        assertEquals(1L, counters.get("malformed.TRUNCATED"), counters.toString());
        assertEquals(1L, counters.get("malformed.BAD_VERSION"), counters.toString());
        assertEquals(1L, counters.get("malformed.UNKNOWN_TYPE"), counters.toString());
        assertEquals(NodeState.STABLE, m.node.state());
    }

    @Test
    void shouldIgnoreBeaconsCarryingItsOwnId() {
        Cluster c = new Cluster(SEED);
        Member a = c.add(5, List.of());
        Member impostor = c.add(5 + 1_000_000, List.of());
        a.node.join();
        c.clock.advanceMs(1);
        ProtocolMessage fake = TreeMessages.encode(new TreeMessages.Beacon(5, 5, 0, false, 0, 0,
                List.of(impostor.address), null, false));
        a.node.onProtocolMessage(fake, impostor.address);
        c.clock.advanceMs(1);
        assertEquals(1L, a.node.counters().get("duplicateId"));
        assertTrue(a.topology().neighbours().isEmpty());
    }

    @Test
    void shouldRefuseLinksBeyondTheBound() {
        Cluster c = new Cluster(SEED);
        c.settings = new TreeSettings(250, 250, 10_000, 2_000, 4, 64, 2, 4096, 10, List.of());
        Member hub = c.add(1_000, List.of());
        List<Member> spokes = new ArrayList<>();
        for (long i = 1; i <= 4; i++) {
            spokes.add(c.add(i, List.of(1_000L)));
        }
        c.joinAll();
        c.clock.advanceMs(3_000);
        assertEquals(2, hub.topology().links(), c.describe());
        assertTrue(hub.node.counters().getOrDefault("refusedLinks", 0L) > 0, hub.node.counters().toString());
        assertEquals(2, spokes.stream().filter(s -> s.node.state().connected()).count(), c.describe());
    }

    @Test
    void shouldBoundProtocolMessagesWaitingForTheProtocolThread() {
        Cluster c = new Cluster(SEED);
        Member m = c.add(5, List.of());
        m.node.join();
        c.clock.advanceMs(1);
        ProtocolMessage junk = new ProtocolMessage(TreeMessages.GOODBYE, new byte[] {1});
        int extra = 500;
        for (int i = 0; i < TreeNode.MAX_PENDING_MESSAGES + extra; i++) {
            m.node.onProtocolMessage(junk, Cluster.addressOf(9));
        }
        assertEquals((long) extra, m.node.counters().get("droppedQueueFull"));
        c.clock.advanceMs(1);
        assertEquals((long) TreeNode.MAX_PENDING_MESSAGES, m.node.counters().get("malformed.TRUNCATED"));
        m.node.onProtocolMessage(junk, Cluster.addressOf(9));
        c.clock.advanceMs(1);
        assertEquals(TreeNode.MAX_PENDING_MESSAGES + 1L, m.node.counters().get("malformed.TRUNCATED"), "the queue drains");
    }
}
