package io.statecast.overlay.socket;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.tree.TreeTopology;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Whole sockets (codec, adapter, tree node, forwarding engine) of a spanning-tree overlay on the
 * in-memory substrate with a virtual clock and injected frame loss.
 */
class TreeOverlaySimulationTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final int N = Boolean.getBoolean("statecast.soak") ? 400 : 100;

    private final VirtualTimerService clock = new VirtualTimerService();
    private final MemNetwork net = new MemNetwork(clock, SEED);
    private final Random random = new Random(SEED);
    private final List<OverlaySocket> sockets = new ArrayList<>();
    private final Set<OverlaySocket> crashed = new HashSet<>();

    @AfterEach
    void closeAll() {
        sockets.forEach(OverlaySocket::close);
    }

    private List<OverlaySocket> alive() {
        return sockets.stream().filter(s -> !crashed.contains(s)).toList();
    }

    /** N sockets with distinct random ids; each but the first two has two distinct random earlier ones as buddies. */
    private void start(int n) throws Exception {
        Set<Long> ids = new HashSet<>();
        for (int k = 0; k < n; k++) {
            long id;
            do {
                id = 1 + random.nextInt(1_000_000);
            } while (!ids.add(id));
            // two distinct earlier nodes (one for the second node): every such mesh is 2-connected,
            // so no single crash partitions it
            Set<SubstrateAddress> buddies = new HashSet<>();
            while (buddies.size() < Math.min(2, k)) {
                buddies.add(sockets.get(random.nextInt(k)).substrateAddresses().get(0));
            }
            OverlayConfig c = OverlayConfig.defaults("sim", NodeType.TREE).withAddress(Long.toString(id))
                    .withInterfaces(List.of(SubstrateAddress.mem("n" + id))).withBuddies(List.copyOf(buddies));
            sockets.add(OverlaySocket.builder(c).interfaces(List.of(net.newInterface("n" + id))).timers(clock)
                    .random(new Random(random.nextLong())).build());
        }
        sockets.forEach(OverlaySocket::joinAsync);
    }

    private long maxAliveId() {
        return alive().stream().mapToLong(s -> ((TreeAddress) s.localAddress()).id()).max().orElseThrow();
    }

    /** One spanning tree over the alive sockets, rooted at the largest id, every node stable. */
    private boolean converged() {
        long max = maxAliveId();
        Map<LogicalAddress, TreeTopology> views = new HashMap<>();
        alive().forEach(s -> views.put(s.localAddress(), (TreeTopology) s.topology()));
        int degrees = 0;
        for (TreeTopology t : views.values()) {
            if (t.state() != NodeState.STABLE || t.rootId() != max) {
                return false;
            }
            for (LogicalAddress n : t.neighbours()) {
                TreeTopology other = views.get(n);
                if (other == null || !other.isNeighbour(t.self())) {
                    return false;
                }
            }
            degrees += t.neighbours().size();
        }
        return degrees == 2 * (views.size() - 1) && views.get(new TreeAddress(max)).descendants().size() == views.size() - 1;
    }

    private String describe() {
        StringBuilder b = new StringBuilder("seed=" + SEED + " t=" + TimeUnit.NANOSECONDS.toMillis(clock.nanoTime()) + "ms\n");
        alive().forEach(s -> b.append("  ").append(s.topology()).append('\n'));
        return b.toString();
    }

    private long transmissions() {
        return alive().stream().mapToLong(s -> s.statistics().forwarding().transmissions()).sum();
    }

    private void assertMulticastExactlyOnce(OverlaySocket source) throws InterruptedException {
        long before = transmissions();
        source.sendToAll(("from " + source.localAddress()).getBytes(UTF_8));
        clock.advanceBy(Duration.ofMillis(200));
        assertEquals(alive().size() - 1, transmissions() - before, "N-1 transmissions; " + describe());
        for (OverlaySocket s : alive()) {
            if (s != source) {
                assertNotNull(s.receive(0, TimeUnit.MILLISECONDS), () -> s + " missed a multicast from " + source + "; " + describe());
            }
            assertNull(s.receive(0, TimeUnit.MILLISECONDS), () -> s + " got a duplicate; " + describe());
        }
    }

    @Test
    void shouldConvergeThroughTwentyPercentLossDeliverOnceAndSurviveRootCrash() throws Exception {
        net.faults().configure(FaultConfig.loss(0.2));
        start(N);
        assertTrue(clock.runUntil(this::converged, Duration.ofMinutes(5)), this::describe);
        long convergedAtMs = TimeUnit.NANOSECONDS.toMillis(clock.nanoTime());
        assertTrue(convergedAtMs > 0);
        net.faults().configure(FaultConfig.NONE);
        clock.advanceBy(Duration.ofSeconds(1));

        for (int i = 0; i < 3; i++) {
            assertMulticastExactlyOnce(alive().get(random.nextInt(alive().size())));
        }

        // the root crashes silently: the next largest id takes over after about one timeout
        OverlaySocket root = alive().stream().filter(s -> s.topology().leader()).findFirst().orElseThrow();
        assertEquals(maxAliveId(), ((TreeAddress) root.localAddress()).id());
        net.faults().blackholeNode(root.substrateAddresses().get(0));
        crashed.add(root);
        long timeoutMs = root.config().heartbeat().timeoutMs();
        assertTrue(clock.runUntil(this::converged, Duration.ofMillis(4 * timeoutMs)), this::describe);
        assertMulticastExactlyOnce(alive().get(random.nextInt(alive().size())));

        // unicast between random pairs arrives once
        for (int i = 0; i < 10; i++) {
            OverlaySocket a = alive().get(random.nextInt(alive().size()));
            OverlaySocket b = alive().get(random.nextInt(alive().size()));
            if (a == b) {
                continue;
            }
            a.sendTo(b.localAddress(), "u".getBytes(UTF_8));
            clock.advanceBy(Duration.ofMillis(200));
            assertNotNull(b.receive(0, TimeUnit.MILLISECONDS), () -> a + " -> " + b + ": " + describe());
            for (OverlaySocket s : alive()) {
                assertNull(s.receive(0, TimeUnit.MILLISECONDS));
            }
        }
    }
}
