package io.statecast.overlay.socket;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.DropCause;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.tree.TreeTopology;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.VirtualTimerService;
import io.statecast.overlay.testkit.Await;
import io.statecast.overlay.testkit.RecordingStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Sockets end to end over the in-memory substrate with a virtual clock (and once over UDP loopback). */
class OverlaySocketTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    private final VirtualTimerService clock = new VirtualTimerService();
    private final MemNetwork net = new MemNetwork(clock, SEED);
    private final List<OverlaySocket> sockets = new ArrayList<>();

    @AfterEach
    void closeAll() {
        sockets.forEach(OverlaySocket::close);
    }

    private OverlayConfig config(String overlay, long id, String... buddies) {
        return OverlayConfig.defaults(overlay, NodeType.TREE).withAddress(Long.toString(id))
                .withInterfaces(List.of(SubstrateAddress.mem("n" + id)))
                .withBuddies(List.of(buddies).stream().map(SubstrateAddress::mem).toList());
    }

    private OverlaySocket socket(OverlayConfig config) throws Exception {
        return socket(OverlaySocket.builder(config));
    }

    private OverlaySocket socket(OverlaySocket.Builder builder) throws Exception {
        OverlaySocket s = builder.build();
        sockets.add(s);
        return s;
    }

    private OverlaySocket.Builder builder(OverlayConfig config) {
        long id = ((TreeAddress) config.parseAddress(config.address())).id();
        return OverlaySocket.builder(config).interfaces(List.of(net.newInterface("n" + id))).timers(clock)
                .random(new Random(SEED + id));
    }

    private List<OverlaySocket> joinedOverlay(int n) throws Exception {
        List<OverlaySocket> out = new ArrayList<>();
        List<CompletableFuture<Void>> joins = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            OverlaySocket s = socket(builder(i == 1 ? config("demo", i) : config("demo", i, "n1")));
            out.add(s);
            joins.add(s.joinAsync());
        }
        assertTrue(clock.runUntil(() -> joins.stream().allMatch(CompletableFuture::isDone), Duration.ofSeconds(30)),
                "seed=" + SEED);
        for (CompletableFuture<Void> j : joins) {
            assertFalse(j.isCompletedExceptionally(), "seed=" + SEED);
        }
        assertTrue(clock.runUntil(() -> out.stream().allMatch(s -> s.state() == NodeState.STABLE
                && ((TreeTopology) s.topology()).rootId() == n), Duration.ofSeconds(60)), () -> describe(out));
        return out;
    }

    private static String describe(List<OverlaySocket> sockets) {
        StringBuilder b = new StringBuilder("seed=" + SEED + "\n");
        sockets.forEach(s -> b.append("  ").append(s.topology()).append('\n'));
        return b.toString();
    }

    private static String text(OverlayMessage m) {
        return new String(m.payload(), UTF_8);
    }

    @Test
    void shouldMulticastUnicastAndFloodEndToEnd() throws Exception {
        List<OverlaySocket> all = joinedOverlay(6);
        OverlaySocket a = all.get(0);
        OverlaySocket b = all.get(1);
        OverlaySocket d = all.get(3);

        assertTrue(a.sendToAll("hello".getBytes(UTF_8)) > 0);
        clock.advanceBy(Duration.ofMillis(100));
        for (OverlaySocket s : all) {
            if (s != a) {
                OverlayMessage m = s.receive(0, TimeUnit.MILLISECONDS);
                assertNotNull(m, () -> s + " got nothing: " + describe(all));
                assertEquals("hello", text(m));
                assertEquals(a.localAddress(), m.source());
                assertEquals(DeliveryMode.MULTICAST, m.mode());
            }
            assertNull(s.receive(0, TimeUnit.MILLISECONDS), "exactly once, never to the sender");
        }

        b.sendTo(d.localAddress(), "psst".getBytes(UTF_8));
        clock.advanceBy(Duration.ofMillis(100));
        assertEquals("psst", text(d.receive(0, TimeUnit.MILLISECONDS)));
        for (OverlaySocket s : all) {
            assertNull(s.receive(0, TimeUnit.MILLISECONDS));
        }

        d.flood("everyone".getBytes(UTF_8));
        clock.advanceBy(Duration.ofMillis(100));
        for (OverlaySocket s : all) {
            if (s != d) {
                assertEquals("everyone", text(s.receive(0, TimeUnit.MILLISECONDS)));
            }
            assertNull(s.receive(0, TimeUnit.MILLISECONDS));
        }
        OverlayStatistics st = d.statistics();
        assertEquals(NodeState.STABLE, st.state());
        assertEquals(0, st.forwarding().totalDrops(), st.toString());
    }

    @Test
    void shouldRunCallbacksOnTheDeliveryThreadNeverOnTheIoThread() throws Exception {
        List<OverlaySocket> all = joinedOverlay(2);
        AtomicReference<Thread> ran = new AtomicReference<>();
        CountDownLatch got = new CountDownLatch(1);
        all.get(1).onMessage(m -> {
            ran.set(Thread.currentThread());
            got.countDown();
        });
        assertThrows(IllegalStateException.class, () -> all.get(1).receive(0, TimeUnit.MILLISECONDS));
        all.get(0).sendToAll("cb".getBytes(UTF_8));
        clock.advanceBy(Duration.ofMillis(100)); // the in-memory substrate delivers on this (the "I/O") thread
        assertTrue(got.await(10, TimeUnit.SECONDS), "callback not called; seed=" + SEED);
        assertTrue(ran.get().getName().startsWith("statecast-delivery-"), ran.get().getName());
        assertFalse(ran.get() == Thread.currentThread());
    }

    @Test
    void founderWithoutBuddiesJoinsAtOnce() throws Exception {
        OverlaySocket s = socket(builder(config("solo", 9)));
        CompletableFuture<Void> f = s.joinAsync();
        assertTrue(clock.runUntil(f::isDone, Duration.ofMillis(10)));
        f.get();
        assertTrue(s.topology().leader());
        assertEquals(0, s.sendToAll(new byte[] {1}), "alone: nobody to send to");
    }

    @Test
    void shouldAcceptSendsOnceJoinWasAskedForEvenBeforeTheNodeStarts() throws Exception {
        OverlaySocket s = socket(builder(config("solo", 9)));
        CompletableFuture<Void> f = s.joinAsync();
        // the node starts on the timer thread, which has not run yet: it is still STOPPED
        assertEquals(NodeState.STOPPED, s.state());
        assertEquals(0, s.sendToAll(new byte[] {1}), "accepted (and routed nowhere yet), not refused");
        assertTrue(clock.runUntil(f::isDone, Duration.ofMillis(10)));
    }

    @Test
    void joinFailsAfterTheTimeoutWhenNoBuddyAnswers() throws Exception {
        OverlaySocket s = socket(builder(config("lonely", 3, "nobody")));
        CompletableFuture<Void> f = s.joinAsync();
        clock.advanceBy(Duration.ofMillis(s.config().join().timeoutMs() - 1));
        assertFalse(f.isDone());
        clock.advanceBy(Duration.ofMillis(2));
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertInstanceOf(OverlayJoinException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("mem://nobody"), e.getCause().getMessage());
        assertEquals(NodeState.JOINING, s.state());
    }

    @Test
    void nodesOfAnotherOverlayNeverLink() throws Exception {
        OverlaySocket a = socket(builder(config("alpha", 1)));
        OverlaySocket b = socket(builder(config("beta", 2, "n1")));
        a.joinAsync();
        CompletableFuture<Void> jb = b.joinAsync();
        clock.advanceBy(Duration.ofSeconds(10));
        assertFalse(jb.isDone());
        assertTrue(a.neighbours().isEmpty());
        assertNull(a.node().counters().get("beaconsReceived"), "beta's beacons are dropped by alpha's codec");
    }

    @Test
    void shouldRefuseSendsBeforeJoinAndOversizedMessages() throws Exception {
        OverlaySocket s = socket(builder(config("demo", 1)));
        assertThrows(IllegalStateException.class, () -> s.sendToAll(new byte[1]));
        s.joinAsync();
        clock.advanceBy(Duration.ofMillis(1));
        assertThrows(IllegalArgumentException.class, () -> s.sendToAll(new byte[s.config().buffers().maxMessageBytes()]));
        s.close();
        assertThrows(IllegalStateException.class, () -> s.sendToAll(new byte[1]));
        s.close(); // idempotent
    }

    @Test
    void serviceMessagesReachTheApplicationOnlyThroughAnInstalledStore() throws Exception {
        RecordingStore store = new RecordingStore(7);
        OverlaySocket a = socket(builder(config("svc", 1)));
        OverlaySocket b = socket(builder(config("svc", 2, "n1")).messageStore(store));
        OverlaySocket c = socket(builder(config("svc", 3, "n1")));
        List<CompletableFuture<Void>> joins = List.of(a.joinAsync(), b.joinAsync(), c.joinAsync());
        assertTrue(clock.runUntil(() -> joins.stream().allMatch(CompletableFuture::isDone)
                && List.of(a, b, c).stream().allMatch(s -> s.state() == NodeState.STABLE), Duration.ofSeconds(30)));

        OverlayMessage sent = a.createMessage(DeliveryMode.MULTICAST, null, "svc".getBytes(UTF_8), 7);
        a.send(sent);
        clock.advanceBy(Duration.ofMillis(100));
        assertEquals(List.of(Arrival.DELIVERED), store.arrivals());
        OverlayMessage stored = store.messages().get(0);
        assertEquals(sent.fsm(), stored.fsm());
        assertNull(b.receive(0, TimeUnit.MILLISECONDS), "with a store, only the store delivers service messages");
        OverlayMessage plain = c.receive(0, TimeUnit.MILLISECONDS);
        assertNotNull(plain, "without a store a service message is delivered best-effort");
        assertEquals(7, plain.fsm().serviceId());

        assertTrue(store.context().toApplication(stored));
        assertEquals("svc", text(b.receive(0, TimeUnit.MILLISECONDS)));
        assertEquals(1, b.statistics().forwarding().toStore());
    }

    @Test
    void leavingSaysGoodbyeSoNeighboursForgetItAtOnce() throws Exception {
        List<OverlaySocket> all = joinedOverlay(3);
        OverlaySocket leaving = all.get(1);
        LogicalAddress gone = leaving.localAddress();
        leaving.leave();
        assertThrows(IllegalStateException.class, () -> leaving.sendToAll(new byte[1]),
                "a send right after leave() must fail even before the protocol thread has stopped the node");
        clock.advanceBy(Duration.ofMillis(50));
        assertEquals(NodeState.STOPPED, leaving.state());
        for (OverlaySocket s : all) {
            assertFalse(s.neighbours().contains(gone), () -> describe(all));
        }
        assertTrue(all.get(0).node().counters().getOrDefault("goodbyesReceived", 0L) >= 1);
        assertThrows(IllegalStateException.class, leaving::joinAsync, "a socket that left does not join again");
        assertThrows(IllegalStateException.class, () -> leaving.sendToAll(new byte[1]));
    }

    @Test
    void shouldJoinThroughTwentyPercentFrameLossAndThenDeliverExactlyOnce() throws Exception {
        net.faults().configure(FaultConfig.loss(0.2));
        List<OverlaySocket> all = joinedOverlay(10);
        net.faults().configure(FaultConfig.NONE);
        clock.advanceBy(Duration.ofSeconds(1));
        all.get(4).sendToAll("x".getBytes(UTF_8));
        clock.advanceBy(Duration.ofMillis(100));
        long transmissions = 0;
        for (OverlaySocket s : all) {
            if (s != all.get(4)) {
                assertNotNull(s.receive(0, TimeUnit.MILLISECONDS), () -> describe(all));
            }
            assertNull(s.receive(0, TimeUnit.MILLISECONDS));
            transmissions += s.statistics().forwarding().transmissions();
        }
        assertEquals(all.size() - 1, transmissions, "N-1 transmissions on a tree");
        assertEquals(0, all.get(0).statistics().forwarding().drops(DropCause.DUPLICATE));
    }

    @Test
    void shouldChatOverUdpLoopbackWithDefaultSubstrates() throws Exception {
        OverlayConfig first = OverlayConfig.defaults("udp-chat", NodeType.TREE).withAddress("2");
        OverlaySocket a = OverlaySocket.create(first);
        sockets.add(a);
        a.join();
        OverlaySocket b = OverlaySocket.create(OverlayConfig.defaults("udp-chat", NodeType.TREE).withAddress("1")
                .withBuddies(a.substrateAddresses()));
        sockets.add(b);
        CountDownLatch got = new CountDownLatch(1);
        AtomicReference<OverlayMessage> received = new AtomicReference<>();
        a.onMessage(m -> {
            received.set(m);
            got.countDown();
        });
        b.join();
        Await.until(() -> b.neighbours().contains(a.localAddress()) && a.neighbours().contains(b.localAddress()),
                10, () -> "no tree edge within 10 s: " + a.topology() + " / " + b.topology());
        assertEquals(List.of(SubstrateAddress.udp("127.0.0.1", a.substrateAddresses().get(0).port())),
                b.adapter().addressRepository().bindings(a.localAddress()), "neighbours are mirrored into the address repository");
        b.sendToAll("over udp".getBytes(UTF_8));
        assertTrue(got.await(10, TimeUnit.SECONDS), "nothing arrived over UDP loopback");
        assertArrayEquals("over udp".getBytes(UTF_8), received.get().payload());
        assertEquals(b.localAddress(), received.get().source());
    }
}
