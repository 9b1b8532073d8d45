package io.statecast.overlay.node.dt;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.sim.DtSimulation;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlayJoinException;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The DT node behind an {@link OverlaySocket}: the default node type, and duplicate coordinates at join. */
class DtSocketTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    @Test
    void shouldBuildADtNodeWhenTheConfigurationNamesNoNodeType() throws Exception {
        OverlayConfig config = OverlayConfig.parse("overlay:\n  id: plain\n  address: '7,9'\n  interfaces: ['mem://solo']\n");
        assertEquals(NodeType.DT, config.node());
        VirtualTimerService clock = new VirtualTimerService();
        MemNetwork net = new MemNetwork(clock, SEED);
        try (OverlaySocket s = OverlaySocket.builder(config).interfaces(List.of(net.newInterface("solo"))).timers(clock)
                .random(new Random(SEED)).build()) {
            assertInstanceOf(DtNode.class, s.node());
            CompletableFuture<Void> joined = s.joinAsync();
            clock.advanceBy(Duration.ofMillis(1));
            assertTrue(joined.isDone() && !joined.isCompletedExceptionally(), "a founder is an overlay of one at once");
            assertEquals(new DtAddress(7, 9), s.localAddress());
            assertTrue(s.topology().leader());
            assertEquals(0, s.sendToAll("alone".getBytes(UTF_8)));
        }
    }

    @Test
    void shouldFailJoinAtOnceWhenAFixedAddressIsTaken() throws Exception {
        try (DtSimulation sim = new DtSimulation(SEED)) {
            OverlaySocket first = sim.add("5,5", List.of());
            OverlaySocket second = sim.add("5,5", List.of(first.substrateAddresses().get(0)));
            first.joinAsync();
            sim.advance(Duration.ofMillis(1));
            CompletableFuture<Void> join = second.joinAsync();
            sim.advance(Duration.ofSeconds(1));
            assertTrue(join.isCompletedExceptionally(), "fails long before the join timeout; " + sim.describe());
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, join::get);
            assertInstanceOf(OverlayJoinException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("(5,5) is already taken by the node at mem://n0"), e.getCause().getMessage());
            assertEquals(NodeState.STOPPED, second.state());
            assertEquals(NodeState.STABLE, first.state(), "the holder is not disturbed");
            assertTrue(first.neighbours().isEmpty());
        }
    }

    @Test
    void shouldDrawFreeCoordinatesWhenRandomOnesAreTaken() throws InterruptedException {
        // 12 nodes drawing from 16 lattice points: collisions are all but certain
        OverlayConfig template = new OverlayConfig(DtSimulation.OVERLAY_ID, NodeType.DT, OverlayConfig.RANDOM,
                new OverlayConfig.Frame(0, 0, 3, 3), null, null, null, null, null, null, null, null, null);
        try (DtSimulation sim = new DtSimulation(SEED, template)) {
            OverlaySocket founder = sim.add(OverlayConfig.RANDOM, List.of());
            for (int i = 1; i < 12; i++) {
                sim.add(OverlayConfig.RANDOM, List.of(founder.substrateAddresses().get(0)));
            }
            sim.joinAll();
            DtOverlayAssertions.awaitConvergence(sim, Duration.ofMinutes(2), "random addresses in a 4x4 frame");
            Set<LogicalAddress> distinct = new HashSet<>();
            for (OverlaySocket s : sim.alive()) {
                assertTrue(distinct.add(s.localAddress()), () -> "duplicate " + s.localAddress() + "; " + sim.describe());
                assertEquals(s.topology().self(), s.localAddress());
                assertNull(s.node().failure());
            }
            DtOverlayAssertions.assertDelaunay(sim, "after redraws");
            long redrawn = sim.alive().stream().mapToLong(s -> s.node().counters().getOrDefault("addressRedrawn", 0L)).sum();
            assertTrue(redrawn > 0, "some node had to draw again; seed=" + SEED);
            // messages carry the current address
            OverlaySocket source = sim.alive().get(sim.alive().size() - 1);
            source.sendToAll("hi".getBytes(UTF_8));
            sim.advance(Duration.ofMillis(100));
            for (OverlaySocket s : sim.alive()) {
                if (s != source) {
                    OverlayMessage m = s.receive(0, TimeUnit.MILLISECONDS);
                    assertNotNull(m, () -> s.localAddress() + " missed it; " + sim.describe());
                    assertEquals(source.localAddress(), m.source());
                }
            }
        }
    }

    @Test
    void shouldMapTheDtSettingsFromTheConfiguration() throws Exception {
        OverlayConfig c = OverlayConfig.parse("""
                overlay:
                  id: x
                  buddies: ['mem://b']
                  heartbeat: { fastMs: 100, slowMs: 400, timeoutMs: 4000, stableAfter: 3 }
                  rendezvous: { iAmHereMs: 900, buddyCacheSize: 4 }
                  addressFrame: { minX: -5, minY: -6, maxX: 7, maxY: 8 }
                """);
        DtSettings s = c.dtSettings();
        assertEquals(100, s.fastHeartbeatMs());
        assertEquals(400, s.slowHeartbeatMs());
        assertEquals(4000, s.timeoutMs());
        assertEquals(3, s.stableAfterHeartbeats());
        assertEquals(900, s.iAmHereMs());
        assertEquals(4, s.buddyCacheSize());
        assertEquals(List.of(SubstrateAddress.mem("b")), s.buddies());
        assertEquals(new DtSettings.Frame(-5, -6, 7, 8), s.redrawFrame(), "RANDOM addresses redraw within the frame");
        assertNull(c.withAddress("1,2").dtSettings().redrawFrame(), "a fixed address fails instead");
    }
}
