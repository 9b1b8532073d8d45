package io.statecast.overlay.node.dt;

import io.statecast.overlay.node.ProtocolBodyException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.NodeEnvironment;
import io.statecast.overlay.node.NodeEvent;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.dt.DtMessages.DtMessage;
import io.statecast.overlay.node.dt.DtMessages.Goodbye;
import io.statecast.overlay.node.dt.DtMessages.Hello;
import io.statecast.overlay.node.dt.DtMessages.IAmHere;
import io.statecast.overlay.node.dt.DtMessages.IAmLeader;
import io.statecast.overlay.node.dt.DtMessages.NewNode;
import io.statecast.overlay.node.dt.DtMessages.NodeRef;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One DT node driven message by message on a virtual clock; what it sends is captured. */
class DtNodeTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final SubstrateAddress ME = SubstrateAddress.mem("me");
    private static final long FAST_MS = 250;
    private static final long TIMEOUT_MS = 10_000;

    /** A message the node sent. */
    private record Sent(long atNanos, SubstrateAddress to, DtMessage message) {
    }

    private final VirtualTimerService clock = new VirtualTimerService();
    private final List<Sent> sent = new ArrayList<>();

    private static DtSettings settings(List<SubstrateAddress> buddies, DtSettings.Frame redraw) {
        return DtSettings.withDefaults(FAST_MS, FAST_MS, TIMEOUT_MS, 2000, 4, 10, buddies, redraw);
    }

    private DtNode node(DtAddress self, DtSettings settings, long seed) {
        NodeEnvironment env = new NodeEnvironment((to, m) -> {
            try {
                sent.add(new Sent(clock.nanoTime(), to, DtMessages.decode(m)));
            } catch (ProtocolBodyException e) {
                throw new AssertionError("the node sent an undecodable message", e);
            }
            return true;
        }, List.of(ME), clock, new SplittableRandom(seed));
        return new DtNode(self, settings, env);
    }

    private DtNode started(DtAddress self, List<SubstrateAddress> buddies) {
        DtNode n = node(self, settings(buddies, null), SEED);
        n.join();
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        return n;
    }

    private void deliver(DtNode n, DtMessage m, SubstrateAddress from) {
        n.onProtocolMessage(DtMessages.encode(m), from);
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
    }

    private static SubstrateAddress at(String name) {
        return SubstrateAddress.mem(name);
    }

    private static Hello helloNeighbour(DtAddress from, String name, DtAddress to) {
        return new Hello(true, from, to, List.of(at(name)), null, null);
    }

    /** Makes {@code a} a neighbour of {@code n} by a HelloNeighbor from it; clears the capture. */
    private void befriend(DtNode n, DtAddress a, String name) {
        deliver(n, helloNeighbour(a, name, n.localAddress()), at(name));
        assertTrue(n.topology().isNeighbour(a), () -> a + " should pass at " + n.localAddress() + ": " + n.topology());
        sent.clear();
    }

    private List<Sent> sentTo(String name) {
        return sent.stream().filter(s -> s.to().equals(at(name))).toList();
    }

    private static Hello hello(Sent s) {
        return (Hello) s.message();
    }

    @Test
    void shouldBeAStableLeaderAloneWithoutBuddies() {
        DtNode n = started(new DtAddress(5, 5), List.of());
        assertEquals(NodeState.STABLE, n.state());
        assertTrue(n.topology().leader());
        assertTrue(n.neighbours().isEmpty());
        assertTrue(sent.isEmpty(), "a founder has no one to talk to");
    }

    @Test
    void shouldSendNewNodeToEveryBuddyWhileAloneAndStayJoining() {
        DtNode n = started(new DtAddress(5, 5), List.of(at("b1"), at("b2"), ME));
        assertEquals(NodeState.JOINING, n.state());
        assertEquals(2, sent.size(), "NewNode to both buddies, not to itself");
        for (Sent s : sent) {
            NewNode nn = (NewNode) s.message();
            assertEquals(new DtAddress(5, 5), nn.joiner());
            assertEquals(List.of(ME), nn.addresses());
            assertFalse(nn.fromLeader());
        }
        sent.clear();
        clock.advanceBy(Duration.ofMillis(2000));
        assertEquals(2, sent.size(), "again after iAmHereMs");
    }

    @Test
    void shouldJitterTheFirstHeartbeatUniformlyThenBeatPeriodically() {
        List<Long> firsts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sent.clear();
            DtNode n = node(new DtAddress(0, 0), settings(List.of(), null), SEED + i);
            long start = clock.nanoTime();
            n.join();
            deliver(n, helloNeighbour(new DtAddress(10, 0), "b", new DtAddress(0, 0)), at("b"));
            clock.advanceBy(Duration.ofMillis(3 * FAST_MS));
            List<Long> times = sentTo("b").stream().map(s -> s.atNanos() - start).toList();
            assertEquals(0, times.get(0), "the answer to a new neighbour goes at once");
            long first = times.get(1);
            assertTrue(first >= 0 && first < TimeUnit.MILLISECONDS.toNanos(FAST_MS), "first heartbeat in [0, fast): " + first);
            assertEquals(TimeUnit.MILLISECONDS.toNanos(FAST_MS), times.get(2) - first, "then every fast heartbeat");
            firsts.add(first);
            n.leave();
            clock.advanceBy(Duration.ofMillis(1));
        }
        long min = firsts.stream().mapToLong(Long::longValue).min().orElseThrow();
        long max = firsts.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(min < TimeUnit.MILLISECONDS.toNanos(60) && max > TimeUnit.MILLISECONDS.toNanos(190),
                "40 first heartbeats spread over [0, 250 ms): " + firsts + "; seed=" + SEED);
    }

    @Test
    void shouldAddAPassingStrangerAnswerAtOnceAndBecomeStable() {
        DtNode n = started(new DtAddress(0, 0), List.of(at("buddy")));
        sent.clear();
        deliver(n, helloNeighbour(new DtAddress(10, 0), "b", new DtAddress(0, 0)), at("b"));
        assertEquals(Set.of(new DtAddress(10, 0)), n.neighbours());
        assertEquals(at("b"), n.topology().substrateAddress(new DtAddress(10, 0)));
        assertEquals(NodeState.INCOMPLETE, n.state());
        Hello answer = hello(sentTo("b").get(0));
        assertTrue(answer.neighbour());
        assertEquals(new DtAddress(0, 0), answer.sender());
        assertEquals(new DtAddress(10, 0), answer.receiver());
        assertEquals(List.of(ME), answer.addresses());
        for (int i = 0; i < 5; i++) {
            deliver(n, helloNeighbour(new DtAddress(10, 0), "b", new DtAddress(0, 0)), at("b"));
            clock.advanceBy(Duration.ofMillis(FAST_MS));
        }
        assertEquals(NodeState.STABLE, n.state(), "no change for stableAfter heartbeats");
        assertFalse(n.topology().leader(), "(10,0) is greater");
        assertEquals(1L, n.counters().get("neighboursAdded"));
    }

    @Test
    void shouldReportCwAndCcwNeighboursAroundEachNeighbour() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        befriend(n, new DtAddress(10, 0), "e");
        befriend(n, new DtAddress(0, 10), "north");
        befriend(n, new DtAddress(-10, 0), "w");
        befriend(n, new DtAddress(0, -10), "s");
        clock.advanceBy(Duration.ofMillis(FAST_MS));
        Hello toEast = hello(sentTo("e").get(0));
        assertEquals(new NodeRef(new DtAddress(0, -10), at("s")), toEast.cw());
        assertEquals(new NodeRef(new DtAddress(0, 10), at("north")), toEast.ccw());
        Hello toNorth = hello(sentTo("north").get(0));
        assertEquals(new DtAddress(10, 0), toNorth.cw().address());
        assertEquals(new DtAddress(-10, 0), toNorth.ccw().address());
    }

    @Test
    void shouldLeaveAHullSideEmpty() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        befriend(n, new DtAddress(10, 0), "e");
        befriend(n, new DtAddress(0, 10), "north");
        clock.advanceBy(Duration.ofMillis(FAST_MS));
        Hello toEast = hello(sentTo("e").get(0));
        assertNull(toEast.cw(), "nothing clockwise of east within half a turn");
        assertEquals(new DtAddress(0, 10), toEast.ccw().address());
    }

    @Test
    void shouldAnswerANodeBehindANeighbourWithTheBlockerAsBothCwAndCcw() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        befriend(n, new DtAddress(10, 0), "b");
        deliver(n, helloNeighbour(new DtAddress(20, 0), "c", new DtAddress(0, 0)), at("c"));
        assertFalse(n.topology().isNeighbour(new DtAddress(20, 0)));
        Hello answer = hello(sentTo("c").get(0));
        assertFalse(answer.neighbour());
        NodeRef blocker = new NodeRef(new DtAddress(10, 0), at("b"));
        assertEquals(blocker, answer.cw());
        assertEquals(blocker, answer.ccw());
    }

    @Test
    void shouldEvictNeighboursANewcomerMakesFailAndTellThem() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        befriend(n, new DtAddress(20, 0), "far");
        deliver(n, helloNeighbour(new DtAddress(10, 0), "near", new DtAddress(0, 0)), at("near"));
        assertEquals(Set.of(new DtAddress(10, 0)), n.neighbours());
        Hello eviction = hello(sentTo("far").get(0));
        assertFalse(eviction.neighbour());
        assertEquals(new DtAddress(10, 0), eviction.cw().address(), "the newcomer blocks it");
        assertEquals(1L, n.counters().get("neighboursEvicted"));
    }

    @Test
    void shouldContactTheClosestReportedNodeThatPasses() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        DtAddress b = new DtAddress(100, 0);
        befriend(n, b, "b");
        // b reports two nodes around (0,0): both pass here, (40,60) is the closer
        deliver(n, new Hello(true, b, new DtAddress(0, 0), List.of(at("b")),
                new NodeRef(new DtAddress(50, -90), at("x")), new NodeRef(new DtAddress(40, 60), at("y"))), at("b"));
        sent.clear();
        clock.advanceBy(Duration.ofMillis(FAST_MS));
        assertEquals(1, sentTo("y").size(), "one discovery Hello, to the closest");
        assertTrue(sentTo("x").isEmpty());
        assertEquals(new DtAddress(40, 60), hello(sentTo("y").get(0)).receiver());
        sent.clear();
        clock.advanceBy(Duration.ofMillis(FAST_MS));
        assertEquals(1, sentTo("x").size(), "the next one, while y has not answered");
        assertTrue(sentTo("y").isEmpty(), "y is tried again only after a few heartbeats");
    }

    @Test
    void shouldNotBeStableWhileItKnowsANodeThatPassesButHasNotAnswered() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        DtAddress b = new DtAddress(100, 0);
        befriend(n, b, "b");
        for (int i = 0; i < 12; i++) {
            // b keeps reporting (40,60), which passes here but never answers (its Hellos are lost)
            deliver(n, new Hello(true, b, new DtAddress(0, 0), List.of(at("b")), null,
                    new NodeRef(new DtAddress(40, 60), at("silent"))), at("b"));
            clock.advanceBy(Duration.ofMillis(FAST_MS));
            assertEquals(NodeState.INCOMPLETE, n.state(), "heartbeat " + i);
        }
        assertTrue(sentTo("silent").size() >= 3, "and keeps trying it");
        for (int i = 0; i < 6; i++) {
            deliver(n, helloNeighbour(b, "b", new DtAddress(0, 0)), at("b"));
            clock.advanceBy(Duration.ofMillis(FAST_MS));
        }
        assertEquals(NodeState.STABLE, n.state(), "once no one reports it any more");
    }

    @Test
    void shouldKeepTryingACandidateAStrangerReportedUntilItIsForgotten() {
        DtNode n = started(new DtAddress(0, 0), List.of(at("buddy")));
        NodeRef toward = new NodeRef(new DtAddress(40, 40), at("c"));
        // a hint: the stranger is not a neighbour, but (40,40) lies toward this node from it
        deliver(n, new Hello(false, new DtAddress(900, 900), new DtAddress(0, 0), List.of(at("k")), toward, toward), at("k"));
        sent.clear();
        List<Long> tries = new ArrayList<>();
        long start = clock.nanoTime();
        for (int i = 0; i < DtNode.CANDIDATE_HEARTBEATS + 8; i++) {
            clock.advanceBy(Duration.ofMillis(FAST_MS));
            sentTo("c").forEach(x -> tries.add((x.atNanos() - start) / TimeUnit.MILLISECONDS.toNanos(FAST_MS)));
            sent.clear();
        }
        assertTrue(tries.size() >= 3, "retried while it does not answer: " + tries);
        for (int i = 1; i < tries.size(); i++) {
            assertEquals(DtNode.RECONTACT_HEARTBEATS, tries.get(i) - tries.get(i - 1), "after the backoff: " + tries);
        }
        assertTrue(tries.get(tries.size() - 1) <= DtNode.CANDIDATE_HEARTBEATS + 1, "then forgotten: " + tries);
    }

    @Test
    void shouldDropANeighbourWhoseLastHelloNeighborIsOlderThanTheTimeout() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        DtAddress b = new DtAddress(10, 0);
        befriend(n, b, "b");
        for (long t = 0; t < TIMEOUT_MS + 2 * FAST_MS; t += FAST_MS) {
            // a HelloNotNeighbor does not keep the relation alive
            deliver(n, new Hello(false, b, new DtAddress(0, 0), List.of(at("b")), null, null), at("b"));
            clock.advanceBy(Duration.ofMillis(FAST_MS));
        }
        assertTrue(n.neighbours().isEmpty());
        assertEquals(1L, n.counters().get("neighboursTimedOut"));
        assertEquals(NodeState.JOINING, n.state(), "alone again, with a cached buddy to try");
        sent.clear();
        clock.advanceBy(Duration.ofMillis(2000));
        assertTrue(sentTo("b").stream().anyMatch(s -> s.message() instanceof NewNode), "rendezvous through the buddy cache");
    }

    @Test
    void shouldForgetANeighbourOnGoodbyeFromItsOwnAddressOnly() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        DtAddress b = new DtAddress(10, 0);
        befriend(n, b, "b");
        deliver(n, new Goodbye(b), at("impostor"));
        assertTrue(n.topology().isNeighbour(b));
        assertEquals(1L, n.counters().get("goodbyeFromOtherAddress"));
        deliver(n, new Goodbye(b), at("b"));
        assertFalse(n.topology().isNeighbour(b));
        assertEquals(NodeState.STABLE, n.state(), "a founder whose neighbours left is alone by design");
    }

    @Test
    void shouldSayGoodbyeToEveryNeighbourOnLeaveAndIgnoreMessagesAfterwards() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        befriend(n, new DtAddress(10, 0), "b");
        befriend(n, new DtAddress(0, 10), "c");
        n.leave();
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        assertEquals(NodeState.STOPPED, n.state());
        assertEquals(2, sent.size());
        for (Sent s : sent) {
            assertEquals(new Goodbye(new DtAddress(0, 0)), s.message());
        }
        sent.clear();
        deliver(n, helloNeighbour(new DtAddress(5, 5), "d", new DtAddress(0, 0)), at("d"));
        clock.advanceBy(Duration.ofSeconds(5));
        assertTrue(sent.isEmpty(), "a stopped node sends nothing");
        assertEquals(1L, n.counters().get("ignoredWhileStopped"));
        n.join();
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        assertEquals(NodeState.STOPPED, n.state(), "a node that left does not join again");
    }

    @Test
    void shouldRouteNewNodeTowardTheJoinerAndAnswerWhereItPasses() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        befriend(n, new DtAddress(100, 0), "e");
        befriend(n, new DtAddress(0, 100), "north");
        befriend(n, new DtAddress(-100, -100), "sw");
        DtAddress far = new DtAddress(1000, 10);
        deliver(n, new NewNode(far, List.of(at("j")), 7, false), at("sw"));
        NewNode forwarded = (NewNode) sentTo("e").get(0).message();
        assertEquals(new NewNode(far, List.of(at("j")), 6, false), forwarded, "on toward the joiner, one hop less");
        Hello hint = hello(sentTo("j").get(0));
        assertFalse(hint.neighbour(), "a hint for the joiner, in case the NewNode is lost further on");
        assertEquals(far, hint.receiver());
        assertEquals(new DtAddress(100, 0), hint.cw().address(), "the neighbour toward the joiner");
        sent.clear();
        deliver(n, new NewNode(far, List.of(at("j")), 0, false), at("sw"));
        assertTrue(sentTo("e").isEmpty(), "not forwarded beyond the hop limit");
        assertEquals(1, sentTo("j").size(), "the joiner still gets the hint");
        assertEquals(1L, n.counters().get("newNodeHopLimit"));
        sent.clear();
        DtAddress close = new DtAddress(30, 30);
        deliver(n, new NewNode(close, List.of(at("j")), 7, false), at("sw"));
        Hello hello = hello(sentTo("j").get(0));
        assertTrue(hello.neighbour());
        assertEquals(close, hello.receiver());
        assertFalse(n.topology().isNeighbour(close), "added only once the joiner answers");
        deliver(n, new NewNode(new DtAddress(100, 0), List.of(at("e")), 7, true), at("sw"));
        assertEquals(1L, n.counters().get("newNodeKnown"), "a NewNode for a neighbour ends here");
    }

    @Test
    void shouldAnswerAJoinerWithItsOwnCoordinatesAsADuplicate() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        DtAddress b = new DtAddress(10, 0);
        befriend(n, b, "b");
        deliver(n, new NewNode(b, List.of(at("twin")), 9, false), at("b"));
        Hello answer = hello(sentTo("twin").get(0));
        assertFalse(answer.neighbour());
        assertEquals(new NodeRef(b, at("b")), answer.cw(), "the holder, as both CW and CCW");
        assertEquals(answer.cw(), answer.ccw());
        sent.clear();
        deliver(n, new NewNode(new DtAddress(0, 0), List.of(at("twin")), 9, false), at("b"));
        Hello mine = hello(sentTo("twin").get(0));
        assertEquals(new NodeRef(new DtAddress(0, 0), ME), mine.cw());
        sent.clear();
        deliver(n, helloNeighbour(b, "twin", new DtAddress(0, 0)), at("twin"));
        assertEquals(at("b"), n.topology().substrateAddress(b), "the neighbour keeps its place");
        assertEquals(new NodeRef(b, at("b")), hello(sentTo("twin").get(0)).cw());
        assertTrue(n.counters().get("duplicateAddress") >= 3);
    }

    @Test
    void shouldDrawNewCoordinatesWhenARandomAddressIsTakenAtJoin() {
        DtSettings.Frame frame = new DtSettings.Frame(0, 0, 1000, 1000);
        DtNode n = node(new DtAddress(5, 5), settings(List.of(at("buddy")), frame), SEED);
        n.join();
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        befriend(n, new DtAddress(50, 50), "k");
        // the holder of (5,5) answers the NewNode that reached it
        NodeRef holder = new NodeRef(new DtAddress(5, 5), at("holder"));
        deliver(n, new Hello(false, new DtAddress(5, 5), new DtAddress(5, 5), List.of(at("holder")), holder, holder), at("holder"));
        DtAddress now = n.localAddress();
        assertNotEquals(new DtAddress(5, 5), now, "seed=" + SEED);
        assertTrue(now.x() >= 0 && now.x() <= 1000 && now.y() >= 0 && now.y() <= 1000);
        assertEquals(now, n.topology().self());
        assertNull(n.failure());
        assertEquals(new Goodbye(new DtAddress(5, 5)), sentTo("k").get(0).message(), "goodbye under the old coordinates");
        assertTrue(n.neighbours().isEmpty());
        NewNode again = (NewNode) sentTo("buddy").get(0).message();
        assertEquals(now, again.joiner(), "joins again at once with the new coordinates");
        assertEquals(1L, n.counters().get("addressRedrawn"));
        sent.clear();
        deliver(n, helloNeighbour(new DtAddress(50, 50), "k", new DtAddress(5, 5)), at("k"));
        assertEquals(new Goodbye(new DtAddress(5, 5)), sentTo("k").get(0).message(),
                "a Hello for the old coordinates is told they are gone");
    }

    @Test
    void shouldDrawNewCoordinatesWhenANeighbourReportsTheirHolder() {
        DtNode n = node(new DtAddress(5, 5), settings(List.of(at("buddy")), new DtSettings.Frame(0, 0, 9, 9)), SEED);
        n.join();
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        NodeRef holder = new NodeRef(new DtAddress(5, 5), at("holder"));
        deliver(n, new Hello(false, new DtAddress(50, 50), new DtAddress(5, 5), List.of(at("k")), holder, holder), at("k"));
        assertNotEquals(new DtAddress(5, 5), n.localAddress());
    }

    @Test
    void shouldFailClearlyWhenAFixedAddressIsTaken() {
        DtNode n = started(new DtAddress(5, 5), List.of(at("buddy")));
        NodeRef holder = new NodeRef(new DtAddress(5, 5), at("holder"));
        deliver(n, new Hello(false, new DtAddress(5, 5), new DtAddress(5, 5), List.of(at("holder")), holder, holder), at("holder"));
        assertEquals(NodeState.STOPPED, n.state());
        assertNotNull(n.failure());
        assertTrue(n.failure().contains("(5,5)") && n.failure().contains("mem://holder"), n.failure());
        assertEquals(new DtAddress(5, 5), n.localAddress());
    }

    @Test
    void shouldKeepItsCoordinatesOnceStable() {
        DtNode n = started(new DtAddress(5, 5), List.of());
        NodeRef holder = new NodeRef(new DtAddress(5, 5), at("holder"));
        deliver(n, new Hello(true, new DtAddress(5, 5), new DtAddress(5, 5), List.of(at("holder")), null, null), at("holder"));
        assertEquals(new DtAddress(5, 5), n.localAddress());
        assertNull(n.failure());
        Hello answer = hello(sentTo("holder").get(0));
        assertFalse(answer.neighbour());
        assertEquals(new NodeRef(new DtAddress(5, 5), ME), answer.cw(), "tells the newcomer who holds the coordinates");
        assertEquals(holder.address(), answer.receiver());
    }

    @Test
    void shouldIgnoreItsOwnMessagesComingBack() {
        DtNode n = started(new DtAddress(5, 5), List.of(ME));
        deliver(n, new NewNode(new DtAddress(5, 5), List.of(ME), 3, false), ME);
        deliver(n, new Hello(true, new DtAddress(5, 5), new DtAddress(5, 5), List.of(ME), null, null), ME);
        assertEquals(1L, n.counters().get("ownNewNode"));
        assertEquals(1L, n.counters().get("selfContact"));
        assertTrue(sent.isEmpty());
        assertNull(n.failure());
    }

    @Test
    void shouldDropAndCountMalformedBodies() {
        DtNode n = started(new DtAddress(5, 5), List.of());
        n.onProtocolMessage(new ProtocolMessage(DtMessages.HELLO_NEIGHBOR, new byte[] {1, 0, 0}), at("x"));
        n.onProtocolMessage(new ProtocolMessage(DtMessages.GOODBYE, new byte[] {9, 0, 0, 0, 0, 0, 0, 0, 0}), at("x"));
        n.onProtocolMessage(new ProtocolMessage(0x99, new byte[0]), at("x"));
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        assertEquals(1L, n.counters().get("malformed.TRUNCATED"));
        assertEquals(1L, n.counters().get("malformed.BAD_VERSION"));
        assertEquals(1L, n.counters().get("malformed.UNKNOWN_TYPE"));
        assertTrue(n.neighbours().isEmpty());
    }

    @Test
    void shouldBoundProtocolMessagesWaitingForTheProtocolThread() {
        DtNode n = started(new DtAddress(5, 5), List.of());
        ProtocolMessage m = DtMessages.encode(new Goodbye(new DtAddress(1, 1)));
        for (int i = 0; i < DtNode.MAX_PENDING_MESSAGES + 5; i++) {
            n.onProtocolMessage(m, at("x"));
        }
        assertEquals(5L, n.counters().get("droppedQueueFull"));
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        assertEquals((long) DtNode.MAX_PENDING_MESSAGES, n.counters().get(NodeEvent.GOODBYES_RECEIVED.label()));
    }

    @Test
    void shouldRefuseNeighboursBeyondItsBound() {
        DtNode n = node(new DtAddress(0, 0), settings(List.of(), null).withMaxNeighbours(2), SEED);
        n.join();
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        befriend(n, new DtAddress(10, 0), "a");
        befriend(n, new DtAddress(0, 10), "b");
        deliver(n, helloNeighbour(new DtAddress(-10, -10), "c", new DtAddress(0, 0)), at("c"));
        assertEquals(2, n.neighbours().size());
        assertFalse(hello(sentTo("c").get(0)).neighbour());
        assertEquals(1L, n.counters().get("refusedNeighbours"));
    }

    @Test
    void shouldRouteANewNodeForAnIAmHereFromAnotherPartitionOnly() {
        DtNode n = started(new DtAddress(0, 0), List.of());
        befriend(n, new DtAddress(100, 0), "e");
        // this node is not the leader ((100,0) is greater) and knows no leader yet
        deliver(n, new IAmHere(new DtAddress(30, 30), List.of(at("j")), new DtAddress(999, 999)), at("j"));
        assertTrue(hello(sentTo("j").get(0)).neighbour(), "another partition: treated as a NewNode");
        sent.clear();
        deliver(n, new IAmLeader(new DtAddress(100, 0), 5, 10), at("e"));
        assertEquals(new DtAddress(100, 0), n.topology().partitionLeader());
        deliver(n, new IAmHere(new DtAddress(30, 30), List.of(at("j")), new DtAddress(100, 0)), at("j"));
        assertTrue(sentTo("j").isEmpty(), "same partition: nothing to do");
        assertEquals(1L, n.counters().get("iAmHereSamePartition"));
        deliver(n, new IAmLeader(new DtAddress(100, 0), 4, 10), at("e"));
        assertEquals(1L, n.counters().get("iAmLeaderIgnored"), "an older announcement");
    }

    @Test
    void shouldAnnounceItselfDownItsTreeWhenLeader() {
        DtNode n = started(new DtAddress(100, 100), List.of(at("buddy")));
        befriend(n, new DtAddress(0, 0), "a");
        // (0,0) considers (100,100) a neighbour (it said HelloNeighbor): it is a child of the leader
        sent.clear();
        clock.advanceBy(Duration.ofMillis(2000));
        assertTrue(n.topology().leader());
        assertTrue(sentTo("a").stream().anyMatch(s -> s.message() instanceof IAmLeader l && l.leader().equals(new DtAddress(100, 100))));
        assertTrue(sentTo("buddy").stream().anyMatch(s -> s.message() instanceof NewNode nn && nn.fromLeader()),
                "a leader contacts a buddy that is not a neighbour");
    }

    @Test
    void shouldEchoANeighboursTimestampWithTheTimeItHeldIt() {
        DtNode n = started(new DtAddress(5, 5), List.of());
        DtAddress a = new DtAddress(6, 6);
        deliver(n, new Hello(true, a, n.localAddress(), List.of(at("a")), null, null,
                new io.statecast.overlay.node.HeartbeatStamp(777, null)), at("a"));
        long receivedNanos = clock.nanoTime();
        assertTrue(n.topology().isNeighbour(a));
        Hello answer = hello(sentTo("a").get(0));
        assertEquals(777, answer.stamp().echo().echoMicros(), "answered at once, echoing the joiner's stamp");
        assertEquals(0, answer.stamp().echo().heldMicros());
        sent.clear();
        deliver(n, new Hello(true, a, n.localAddress(), List.of(at("a")), null, null,
                new io.statecast.overlay.node.HeartbeatStamp(900, null)), at("a"));
        clock.advanceBy(Duration.ofMillis(FAST_MS));
        Hello beat = hello(sentTo("a").get(0));
        assertEquals(900, beat.stamp().echo().echoMicros());
        assertEquals(TimeUnit.NANOSECONDS.toMicros(sentTo("a").get(0).atNanos() - receivedNanos),
                beat.stamp().echo().heldMicros(), "held from arrival to the heartbeat");
        assertEquals(TimeUnit.NANOSECONDS.toMicros(sentTo("a").get(0).atNanos()), beat.stamp().sentMicros(),
                "its own stamp is its clock in microseconds");
        assertTrue(n.rtt(a).isEmpty(), "no echo received yet: unknown");
        long echoed = beat.stamp().sentMicros();
        clock.advanceBy(Duration.ofMillis(7));
        deliver(n, new Hello(true, a, n.localAddress(), List.of(at("a")), null, null,
                new io.statecast.overlay.node.HeartbeatStamp(1000, new io.statecast.overlay.node.HeartbeatStamp.Echo(echoed, 3_000))),
                at("a"));
        long sinceBeatMicros = TimeUnit.NANOSECONDS.toMicros(clock.nanoTime()) - echoed;
        assertTrue(sinceBeatMicros >= 7_000, "at least the 7 ms just advanced");
        assertEquals((sinceBeatMicros - 3_000) / 1000.0, n.rtt(a).orElseThrow().srttMillis(), 1e-9,
                "the time since the heartbeat less the 3 ms held");
        assertEquals(1L, n.counters().get("rttSamples"));
    }

    @Test
    void shouldDropAndCountAHelloWithAMalformedTimestamp() {
        DtNode n = started(new DtAddress(5, 5), List.of());
        byte[] body = DtMessages.encode(new Hello(true, new DtAddress(6, 6), n.localAddress(), List.of(at("a")), null, null,
                new io.statecast.overlay.node.HeartbeatStamp(1, new io.statecast.overlay.node.HeartbeatStamp.Echo(2, 3)))).body();
        byte[] echoAlone = body.clone();
        echoAlone[1] = (byte) DtMessages.FLAG_ECHO;
        n.onProtocolMessage(new ProtocolMessage(DtMessages.HELLO_NEIGHBOR, echoAlone), at("a"));
        n.onProtocolMessage(new ProtocolMessage(DtMessages.HELLO_NEIGHBOR, java.util.Arrays.copyOf(body, body.length - 2)), at("a"));
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        assertEquals(1L, n.counters().get("malformed.BAD_FLAGS"));
        assertEquals(1L, n.counters().get("malformed.TRUNCATED"));
        assertTrue(n.neighbours().isEmpty(), "neither was taken as a Hello");
        assertTrue(sent.isEmpty());
    }

    @Test
    void shouldSendNoTimestampsToANeighbourWhoseHellosCarryNone() {
        DtNode n = started(new DtAddress(5, 5), List.of());
        DtAddress old = new DtAddress(6, 6);
        deliver(n, helloNeighbour(old, "old", n.localAddress()), at("old"));
        assertTrue(n.topology().isNeighbour(old));
        assertNull(hello(sentTo("old").get(0)).stamp(), "the answer to an older node carries no timestamps it would refuse");
        sent.clear();
        clock.advanceBy(Duration.ofMillis(FAST_MS));
        assertNull(hello(sentTo("old").get(0)).stamp(), "nor do its heartbeats");
        assertTrue(n.rtt(old).isEmpty());
    }
}
