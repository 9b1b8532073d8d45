package io.statecast.messagestore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.DropCause;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.FaultModel;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.MemNetworkConfig;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two overlay nodes (spanning tree, in-memory substrate, virtual clock) exchange service-marked
 * messages through their MessageStores with the acknowledged test service. Node 1's store comes
 * from its configuration's {@code messageStore} section (found by the ServiceLoader); node 2's is
 * given to the socket builder.
 */
class StoreOverSocketsTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final ObjectMapper JSON = new ObjectMapper();

    private final VirtualTimerService clock = new VirtualTimerService();
    private final FaultModel faults = new FaultModel(SEED);
    private final MemNetwork net = new MemNetwork(clock, faults, MemNetworkConfig.defaults());
    private final List<OverlaySocket> sockets = new ArrayList<>();

    @AfterEach
    void close() {
        sockets.forEach(OverlaySocket::close);
        assertEquals(0, clock.taskFailures(), () -> "seed " + SEED + ": " + clock.lastFailure());
    }

    private OverlayConfig config(long id, String... buddies) {
        return OverlayConfig.defaults("store-test", NodeType.TREE).withAddress(Long.toString(id))
                .withInterfaces(List.of(SubstrateAddress.mem("n" + id)))
                .withBuddies(List.of(buddies).stream().map(SubstrateAddress::mem).toList());
    }

    private OverlaySocket.Builder builder(OverlayConfig config, long id) {
        return OverlaySocket.builder(config).interfaces(List.of(net.newInterface("n" + id))).timers(clock)
                .random(new Random(SEED + id));
    }

    /** Node 1 (store from its configuration) and node 2 (store given), joined. */
    private OverlaySocket[] pair(String linger) throws Exception {
        String section = ("{'threading': 'clock', 'shards': 2, 'services': [{'uri': 'classpath:specs/ack-service.scxml',"
                + " 'parameters': {'Linger': " + linger + "}}]}").replace('\'', '"');
        OverlaySocket a = builder(config(1).withMessageStore(JSON.readTree(section)), 1).build();
        sockets.add(a);
        MessageStore storeB = new MessageStore(MessageStoreConfig.defaults().withShards(2)
                .withThreading(MessageStoreConfig.Threading.CLOCK), Specs.loader(), SpecResolver.defaults());
        storeB.install(Specs.load("specs/ack-service.scxml").withParameters(java.util.Map.of("Linger", linger)));
        OverlaySocket b = builder(config(2, "n1"), 2).messageStore(storeB).build();
        sockets.add(b);
        CompletableFuture<Void> ja = a.joinAsync();
        CompletableFuture<Void> jb = b.joinAsync();
        assertTrue(clock.runUntil(() -> ja.isDone() && jb.isDone() && a.state() == NodeState.STABLE
                && b.state() == NodeState.STABLE, Duration.ofSeconds(60)), "seed " + SEED);
        return new OverlaySocket[] {a, b};
    }

    private static MessageStore storeOf(OverlaySocket s) {
        return (MessageStore) s.messageStore();
    }

    private static List<String> drainApplication(OverlaySocket s) throws InterruptedException {
        List<String> got = new ArrayList<>();
        OverlayMessage m;
        while ((m = s.receive(0, TimeUnit.MILLISECONDS)) != null) {
            got.add(new String(m.payload(), UTF_8));
        }
        return got;
    }

    @Test
    void shouldAcknowledgeEveryMessageThroughBothStores() throws Exception {
        OverlaySocket[] p = pair("1000");
        OverlaySocket a = p[0];
        OverlaySocket b = p[1];
        TreeAddress to = (TreeAddress) b.localAddress();
        for (int i = 0; i < 5; i++) {
            a.sendTo(to, ("m" + i).getBytes(UTF_8), 42);
        }
        clock.advanceBy(Duration.ofMillis(100));
        assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), drainApplication(b).stream().sorted().toList());
        assertEquals(List.of(), drainApplication(a), "the sender's application sees nothing");

        MessageStoreMetrics ma = storeOf(a).metrics();
        MessageStoreMetrics mb = storeOf(b).metrics();
        CountersSnapshot sa = ma.service(42).counters();
        CountersSnapshot sb = mb.service(42).counters();
        assertEquals(5, sa.created(), ma.format());
        assertEquals(10, sa.messages(), "5 sent by the application, 5 ACKs");
        assertEquals(5, sa.compositesFired(), "every ACK came from the destination");
        assertEquals(0, sa.executed(Primitive.SEND_DATA_MESSAGE), "no retransmission without loss");
        assertEquals(5, sb.created());
        assertEquals(5, sb.executed(Primitive.TO_APPLICATION));
        assertEquals(5, sb.executed(Primitive.SEND_CONTROL_MESSAGE));
        assertEquals(0, ma.node().totalDrops() + mb.node().totalDrops(), ma.format() + mb.format());
        assertEquals(10, ma.node().processing().count(), "T_msg measured per message");

        clock.advanceBy(Duration.ofMillis(1100));
        assertEquals(5, storeOf(a).metrics().service(42).counters().finished());
        assertEquals(5, storeOf(b).metrics().service(42).counters().finished());
        assertEquals(0, storeOf(a).metrics().node().liveInstances());
        assertEquals(0, a.statistics().forwarding().drops().getOrDefault(DropCause.STORE_REJECTED, 0L));
    }

    @Test
    void shouldDeliverExactlyOnceThroughLossAndDuplication() throws Exception {
        OverlaySocket[] p = pair("5000");
        OverlaySocket a = p[0];
        OverlaySocket b = p[1];
        faults.configure(new FaultConfig(0.2, 0.1, 0, Duration.ZERO, Duration.ofMillis(2), Duration.ofMillis(3)));
        int n = 20;
        for (int i = 0; i < n; i++) {
            a.sendTo(b.localAddress(), ("m" + i).getBytes(UTF_8), 42);
            clock.advanceBy(Duration.ofMillis(10));
        }
        clock.advanceBy(Duration.ofSeconds(8));
        List<String> got = drainApplication(b);
        Set<String> distinct = new HashSet<>(got);
        assertEquals(n, got.size(), () -> "exactly once, seed " + SEED + ": " + got + "\n" + storeOf(b).metrics().format());
        assertEquals(n, distinct.size(), "seed " + SEED);
        CountersSnapshot sa = storeOf(a).metrics().service(42).counters();
        assertTrue(sa.compositesFired() >= n, () -> "every message acknowledged (duplicated ACKs fire again), seed "
                + SEED + "\n" + storeOf(a).metrics().format());
        assertEquals(n, sa.finished(), "every sender instance reached done and ended; seed " + SEED);
        CountersSnapshot sb = storeOf(b).metrics().service(42).counters();
        assertEquals(n, sb.created(), "a duplicate never starts a second instance; seed " + SEED);
        assertEquals(n, sb.finished());
        assertNull(storeOf(b).metrics().service(99));
        assertFalse(sb.drops(DropReason.INSTANCE_LIMIT) > 0);
    }
}
