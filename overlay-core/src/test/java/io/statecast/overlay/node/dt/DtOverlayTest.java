package io.statecast.overlay.node.dt;

import static io.statecast.overlay.node.dt.DtOverlayAssertions.assertDelaunay;
import static io.statecast.overlay.node.dt.DtOverlayAssertions.assertTree;
import static io.statecast.overlay.node.dt.DtOverlayAssertions.awaitConvergence;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.sim.DtSimulation;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.FaultConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Whole DT overlays (sockets with codec, adapter, DT node and forwarding engine) on the in-memory
 * substrate with a virtual clock, checked against the test-scope Delaunay oracles. Every failure
 * message carries the seed; replay with {@code -Dstatecast.seed=…}.
 */
class DtOverlayTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");

    private static DtSimulation started(long seed, List<DtAddress> points, int buddies) {
        DtSimulation sim = new DtSimulation(seed);
        sim.addAll(points, buddies);
        sim.joinAll();
        return sim;
    }

    private static List<DtAddress> random(long seed, int n) {
        return DelaunayOracle.randomPoints(new Random(seed), n, 0, 10_000);
    }

    private static long transmissions(DtSimulation sim) {
        return sim.alive().stream().mapToLong(s -> s.statistics().forwarding().transmissions()).sum();
    }

    /** A multicast from {@code source} reaches every other alive node once, with N − 1 transmissions. */
    private static void assertMulticastExactlyOnce(DtSimulation sim, OverlaySocket source) throws InterruptedException {
        long before = transmissions(sim);
        source.sendToAll(("from " + source.localAddress()).getBytes(UTF_8));
        sim.advance(Duration.ofMillis(100));
        int n = sim.alive().size();
        assertEquals(n - 1, transmissions(sim) - before, () -> "N-1 transmissions from " + source.localAddress() + "; " + sim.describe());
        for (OverlaySocket s : sim.alive()) {
            if (s != source) {
                assertNotNull(s.receive(0, TimeUnit.MILLISECONDS),
                        () -> s.localAddress() + " missed a multicast from " + source.localAddress() + "; " + sim.describe());
            }
            assertNull(s.receive(0, TimeUnit.MILLISECONDS), () -> s.localAddress() + " got a duplicate; " + sim.describe());
        }
    }

    private static void assertUnicastsArrive(DtSimulation sim, int count) throws InterruptedException {
        List<OverlaySocket> alive = sim.alive();
        for (int i = 0; i < count; i++) {
            OverlaySocket a = alive.get(sim.random().nextInt(alive.size()));
            OverlaySocket b = alive.get(sim.random().nextInt(alive.size()));
            if (a == b) {
                continue;
            }
            a.sendTo(b.localAddress(), "u".getBytes(UTF_8));
            sim.advance(Duration.ofMillis(100));
            assertNotNull(b.receive(0, TimeUnit.MILLISECONDS), () -> a.localAddress() + " -> " + b.localAddress() + "; " + sim.describe());
            for (OverlaySocket s : alive) {
                assertNull(s.receive(0, TimeUnit.MILLISECONDS), () -> "stray copy at " + s.localAddress() + "; seed=" + sim.seed());
            }
        }
    }

    @Test
    void shouldConvergeToTheDelaunayTriangulationWithTenNodes() {
        for (int run = 0; run < 5; run++) {
            long seed = SEED + run;
            try (DtSimulation sim = started(seed, random(seed, 10), 2)) {
                awaitConvergence(sim, Duration.ofSeconds(60), "N=10");
                assertDelaunay(sim, "N=10");
            }
        }
    }

    @Test
    void shouldConvergeWithHundredNodesAndBuildConsistentCompassTrees() throws InterruptedException {
        try (DtSimulation sim = started(SEED, random(SEED, 100), 2)) {
            awaitConvergence(sim, Duration.ofSeconds(120), "N=100");
            assertDelaunay(sim, "N=100");
            List<OverlaySocket> alive = sim.alive();
            for (int i = 0; i < 5; i++) {
                DtAddress root = (DtAddress) alive.get(sim.random().nextInt(alive.size())).localAddress();
                int depth = assertTree(sim, root, "N=100");
                assertTrue(depth <= 3 * Math.sqrt(100), "depth " + depth + " <= 3 sqrt(N); seed=" + SEED);
            }
            for (int i = 0; i < 3; i++) {
                assertMulticastExactlyOnce(sim, alive.get(sim.random().nextInt(alive.size())));
            }
            assertUnicastsArrive(sim, 20);
        }
    }

    @Test
    void shouldRouteUnicastAlongTheTreeToNodesAndGreedilyToPoints() {
        try (DtSimulation sim = started(SEED, random(SEED, 60), 2)) {
            awaitConvergence(sim, Duration.ofSeconds(120), "N=60");
            List<OverlaySocket> alive = sim.alive();
            List<DtAddress> points = sim.points();
            for (OverlaySocket s : alive) {
                Topology t = s.topology();
                for (DtAddress d : points) {
                    if (!d.equals(s.localAddress())) {
                        assertEquals(t.parent(d), t.nextHop(d), "nextHop = parent toward a node; seed=" + SEED);
                    }
                }
            }
            Random r = new Random(SEED);
            for (int i = 0; i < 200; i++) {
                DtAddress target = new DtAddress(r.nextInt(10_001), r.nextInt(10_001));
                OverlaySocket at = alive.get(r.nextInt(alive.size()));
                int hops = 0;
                LogicalAddress next;
                while ((next = at.topology().nextHop(target)) != null) {
                    at = sim.socketAt(next);
                    assertTrue(++hops <= alive.size(), "greedy routing loops; seed=" + SEED);
                }
                DtAddress reached = (DtAddress) at.localAddress();
                for (DtAddress p : points) {
                    assertTrue(Predicates.compareDistance(reached, p, target) <= 0,
                            "greedy toward " + target + " stopped at " + reached + " but " + p + " is closer; seed=" + SEED);
                }
            }
        }
    }

    @Test
    void shouldConvergeDespiteTwentyPercentLoss() {
        try (DtSimulation sim = new DtSimulation(SEED)) {
            sim.network().faults().configure(FaultConfig.loss(0.2).withDelay(Duration.ofMillis(1), Duration.ofMillis(5)));
            sim.addAll(random(SEED, 100), 2);
            sim.joinAll();
            awaitConvergence(sim, Duration.ofMinutes(5), "N=100, 20% loss");
            assertDelaunay(sim, "N=100, 20% loss");
        }
    }

    @Test
    void shouldConvergeWithThreeHundredNodesOrAThousandUnderSoak() {
        int n = SOAK ? 1000 : 300; // 1,000 takes about 5-10 s of CPU: -Dstatecast.soak=true (-Psoak)
        try (DtSimulation sim = started(SEED, random(SEED, n), 2)) {
            awaitConvergence(sim, Duration.ofMinutes(5), "N=" + n);
            assertDelaunay(sim, "N=" + n);
            DtAddress root = (DtAddress) sim.alive().get(0).localAddress();
            int depth = assertTree(sim, root, "N=" + n);
            assertTrue(depth <= 3 * Math.sqrt(n), "depth " + depth + "; seed=" + SEED);
        }
    }

    // ---------------------------------------------------------------------------------- churn

    @Test
    void shouldReconvergeAfterTenPercentCrashSilently() throws InterruptedException {
        int n = 200;
        try (DtSimulation sim = started(SEED, random(SEED, n), 2)) {
            awaitConvergence(sim, Duration.ofMinutes(2), "N=200 before crashes");
            List<OverlaySocket> victims = new ArrayList<>(sim.alive());
            Collections.shuffle(victims, sim.random());
            for (OverlaySocket s : victims.subList(0, n / 10)) {
                sim.crash(s);
            }
            long timeoutMs = sim.template().heartbeat().timeoutMs();
            long fastMs = sim.template().heartbeat().fastMs();
            // neighbours notice after the timeout; the holes then re-triangulate in a few heartbeats
            // (stableAfter of them to be reported STABLE)
            awaitConvergence(sim, Duration.ofMillis(timeoutMs + 40 * fastMs), "after 10% silent crashes");
            assertDelaunay(sim, "after 10% silent crashes");
            for (int i = 0; i < 3; i++) {
                assertMulticastExactlyOnce(sim, sim.alive().get(sim.random().nextInt(sim.alive().size())));
            }
        }
    }

    @Test
    void shouldReconvergeQuicklyAfterTenPercentLeaveGracefully() throws InterruptedException {
        int n = 200;
        try (DtSimulation sim = started(SEED, random(SEED, n), 2)) {
            awaitConvergence(sim, Duration.ofMinutes(2), "N=200 before leaves");
            List<OverlaySocket> leaving = new ArrayList<>(sim.alive());
            Collections.shuffle(leaving, sim.random());
            for (OverlaySocket s : leaving.subList(0, n / 10)) {
                sim.leave(s);
            }
            long fastMs = sim.template().heartbeat().fastMs();
            awaitConvergence(sim, Duration.ofMillis(30 * fastMs), "after 10% graceful leaves");
            assertDelaunay(sim, "after 10% graceful leaves");
            for (int i = 0; i < 3; i++) {
                assertMulticastExactlyOnce(sim, sim.alive().get(sim.random().nextInt(sim.alive().size())));
            }
        }
    }

    // ---------------------------------------------------------------------------------- partitions

    @Test
    void shouldMergeTwoOverlaysStartedFromDifferentBuddies() throws InterruptedException {
        try (DtSimulation sim = new DtSimulation(SEED)) {
            List<DtAddress> points = random(SEED, 80);
            // overlay A around founder a0, overlay B around founder b0; b0 also knows a0, but the
            // link between them is cut at first, so two overlays form
            List<OverlaySocket> a = sim.addAll(points.subList(0, 40), 2);
            OverlaySocket a0 = a.get(0);
            OverlaySocket b0 = sim.add(points.get(40), List.of(a0.substrateAddresses().get(0)));
            List<OverlaySocket> b = new ArrayList<>(List.of(b0));
            for (DtAddress p : points.subList(41, 80)) {
                b.add(sim.add(p, List.of(b0.substrateAddresses().get(0))));
            }
            var faults = sim.network().faults();
            faults.blackholeLink(b0.substrateAddresses().get(0), a0.substrateAddresses().get(0));
            faults.blackholeLink(a0.substrateAddresses().get(0), b0.substrateAddresses().get(0));
            sim.joinAll();
            assertTrue(sim.runUntil(() -> sim.quiescent() && DtOverlayAssertions.leaders(sim) == 2, Duration.ofMinutes(1),
                    Duration.ofMillis(250)), () -> "two separate overlays; " + sim.describe());
            for (OverlaySocket s : a) {
                for (LogicalAddress n : s.neighbours()) {
                    assertTrue(a.stream().anyMatch(x -> x.localAddress().equals(n)), "A stays apart; seed=" + SEED);
                }
            }
            faults.liftAll();
            awaitConvergence(sim, Duration.ofMinutes(1), "after the partition heals");
            assertDelaunay(sim, "merged overlay");
            assertMulticastExactlyOnce(sim, b.get(b.size() - 1));
        }
    }

    // ---------------------------------------------------------------------------------- degenerate layouts

    private static void assertConvergesTo(long seed, List<DtAddress> points, String ctx) {
        try (DtSimulation sim = started(seed, points, 2)) {
            awaitConvergence(sim, Duration.ofMinutes(2), ctx);
            assertDelaunay(sim, ctx);
            if (points.size() > 1) {
                assertTree(sim, points.get(0), ctx);
            }
        }
    }

    @Test
    void shouldFormAPathWhenAllPointsAreCollinear() {
        Random r = new Random(SEED);
        assertConvergesTo(SEED, Layouts.line(20, 100, 100, 37, 0, r), "horizontal line");
        assertConvergesTo(SEED, Layouts.line(20, 5000, 100, -13, 29, r), "slanted line");
    }

    @Test
    void shouldTriangulateALatticeByTheCocircularityRule() {
        assertConvergesTo(SEED, Layouts.lattice(7, 7, 1000, 1000, 100), "7x7 lattice");
        assertConvergesTo(SEED, Layouts.circle(5, 5000, 5000, 300), "lattice points on one circle");
    }

    @Test
    void shouldHandleOneTwoAndThreeNodes() {
        try (DtSimulation sim = started(SEED, List.of(new DtAddress(5, 5)), 2)) {
            sim.advance(Duration.ofMillis(10));
            Topology t = sim.alive().get(0).topology();
            assertEquals(io.statecast.overlay.node.NodeState.STABLE, t.state(), "a founder alone is stable");
            assertTrue(t.leader() && t.neighbours().isEmpty());
        }
        assertConvergesTo(SEED, List.of(new DtAddress(0, 0), new DtAddress(10, 3)), "N=2");
        assertConvergesTo(SEED, List.of(new DtAddress(0, 0), new DtAddress(10, 3), new DtAddress(4, 9)), "N=3 triangle");
        assertConvergesTo(SEED, List.of(new DtAddress(0, 0), new DtAddress(10, 10), new DtAddress(5, 5)), "N=3 collinear");
    }

    @Test
    void shouldStayExactAtExtremeCoordinates() {
        Random r = new Random(SEED);
        List<DtAddress> corners = new ArrayList<>(List.of(new DtAddress(Integer.MIN_VALUE, Integer.MIN_VALUE),
                new DtAddress(Integer.MAX_VALUE, Integer.MIN_VALUE), new DtAddress(Integer.MIN_VALUE, Integer.MAX_VALUE),
                new DtAddress(Integer.MAX_VALUE, Integer.MAX_VALUE), new DtAddress(0, 0), new DtAddress(1, 0),
                new DtAddress(Integer.MAX_VALUE - 1, Integer.MAX_VALUE)));
        while (corners.size() < 30) {
            DtAddress p = new DtAddress(r.nextInt(), r.nextInt());
            if (!corners.contains(p)) {
                corners.add(p);
            }
        }
        assertConvergesTo(SEED, corners, "extreme coordinates");
    }
}
