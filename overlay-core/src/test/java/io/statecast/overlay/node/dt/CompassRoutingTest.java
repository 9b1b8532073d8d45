package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangulation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Compass and greedy routing on oracle triangulations, degenerate ones included. */
class CompassRoutingTest {

    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");

    private static DtAddress p(int x, int y) {
        return new DtAddress(x, y);
    }

    private static Map<String, Triangulation> layouts(Random random) {
        Map<String, Triangulation> map = new LinkedHashMap<>();
        map.put("random N=100", DelaunayCrossCheckTest.generalPosition(random, 100, 0, 100_000));
        map.put("random N=1000", DelaunayCrossCheckTest.generalPosition(random, 1000, 0, 1 << 20));
        map.put("random N=200 full range",
                DelaunayCrossCheckTest.generalPosition(random, 200, Integer.MIN_VALUE, Integer.MAX_VALUE));
        map.put("lattice 9x9", DelaunayOracle.bruteForce(Layouts.lattice(9, 9, 0, 0, 1)));
        map.put("lattice 6x6 full range",
                DelaunayOracle.bruteForce(Layouts.lattice(6, 6, Integer.MIN_VALUE, Integer.MIN_VALUE, 858_993_459L)));
        map.put("lattice subset", DelaunayOracle.bruteForce(Layouts.sample(Layouts.lattice(8, 8, 0, 0, 3), 40, random)));
        map.put("collinear", DelaunayOracle.bruteForce(Layouts.line(15, -7, 3, 2, -1, random)));
        List<DtAddress> wheel = new ArrayList<>(Layouts.circle(65, 0, 0, 1));
        wheel.add(p(1, 2));
        map.put("cocircular ring plus one", DelaunayOracle.bruteForce(wheel));
        return map;
    }

    @Test
    void parentsShouldFormASpanningTreeTowardEveryRoot() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        for (Map.Entry<String, Triangulation> e : layouts(random).entrySet()) {
            Triangulation t = e.getValue();
            Map<DtAddress, Set<DtAddress>> nbrs = t.neighbours();
            int n = t.points().size();
            List<DtAddress> roots = n <= 40 || SOAK ? t.points() : Layouts.sample(t.points(), 8, random);
            long depthSum = 0;
            int maxDepth = 0;
            for (DtAddress root : roots) {
                String ctx = "seed=" + seed + " " + e.getKey() + " root=" + root;
                Map<DtAddress, DtAddress> parent = new LinkedHashMap<>();
                for (DtAddress k : t.points()) {
                    CompassRouting.parent(k, nbrs.get(k), root).ifPresent(q -> parent.put(k, q));
                }
                assertEquals(n - 1, parent.size(), "every node but the root has a parent; " + ctx);
                for (Map.Entry<DtAddress, DtAddress> pe : parent.entrySet()) {
                    assertTrue(nbrs.get(pe.getKey()).contains(pe.getValue()), "parent is a neighbour; " + ctx);
                }
                for (DtAddress k : t.points()) {
                    int steps = 0;
                    DtAddress at = k;
                    while (!at.equals(root)) {
                        at = parent.get(at);
                        steps++;
                        assertTrue(steps < n, "compass routing from " + k + " loops; " + ctx);
                    }
                    depthSum += steps;
                    maxDepth = Math.max(maxDepth, steps);
                }
                // The children test each node can run locally from j's reported CW/CCW pair.
                for (DtAddress j : t.points()) {
                    for (DtAddress k : nbrs.get(j)) {
                        boolean local = CompassRouting.isParentOf(k, j, AngularOrder.cw(j, nbrs.get(j), k),
                                AngularOrder.ccw(j, nbrs.get(j), k), root);
                        assertEquals(k.equals(parent.get(j)), local, k + " parent of " + j + "? " + ctx);
                    }
                }
            }
            if (e.getKey().startsWith("random N=1000")) {
                double avg = (double) depthSum / ((long) roots.size() * n);
                assertTrue(maxDepth <= 3 * Math.sqrt(n), "max depth " + maxDepth + "; seed=" + seed);
                System.out.printf("compass trees, %s: average depth %.1f (0.5·√N = %.1f), max %d%n",
                        e.getKey(), avg, 0.5 * Math.sqrt(n), maxDepth);
            }
        }
    }

    @Test
    void greedyRoutingShouldEndAtANearestNode() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        for (Map.Entry<String, Triangulation> e : layouts(random).entrySet()) {
            Triangulation t = e.getValue();
            Map<DtAddress, Set<DtAddress>> nbrs = t.neighbours();
            int n = t.points().size();
            List<DtAddress> targets = new ArrayList<>(DelaunayOracle.randomPoints(random, 100,
                    Integer.MIN_VALUE, Integer.MAX_VALUE));
            int minX = t.points().stream().mapToInt(DtAddress::x).min().orElseThrow();
            int maxX = t.points().stream().mapToInt(DtAddress::x).max().orElseThrow();
            int minY = t.points().stream().mapToInt(DtAddress::y).min().orElseThrow();
            int maxY = t.points().stream().mapToInt(DtAddress::y).max().orElseThrow();
            // Around the points' bounding square, with a margin: there are always ≥ 200 targets.
            long lo = Math.min(minX, minY);
            long hi = Math.max(maxX, maxY);
            long margin = Math.max(20, (hi - lo) / 4);
            targets.addAll(DelaunayOracle.randomPoints(random, 200, Math.max(Integer.MIN_VALUE, lo - margin),
                    Math.min(Integer.MAX_VALUE, hi + margin)));
            for (DtAddress target : targets) {
                DtAddress at = t.points().get(random.nextInt(n));
                String ctx = "seed=" + seed + " " + e.getKey() + " target=" + target + " start=" + at;
                int hops = 0;
                for (Optional<DtAddress> next = CompassRouting.nextHopGreedy(at, nbrs.get(at), target);
                     next.isPresent(); next = CompassRouting.nextHopGreedy(at, nbrs.get(at), target)) {
                    at = next.get();
                    assertTrue(++hops < n, "greedy loops; " + ctx);
                }
                DtAddress nearest = t.points().stream()
                        .min((a, b) -> Predicates.compareDistance(a, b, target)).orElseThrow();
                assertEquals(0, Predicates.compareDistance(at, nearest, target),
                        "ended at " + at + ", nearest is " + nearest + "; " + ctx);
            }
        }
    }

    @Test
    void parentShouldPreferTheRootThenTheSmallestAngleThenDistanceThenOrder() {
        DtAddress k = p(0, 0);
        DtAddress root = p(100, 0);
        assertEquals(Optional.of(root), CompassRouting.parent(k, List.of(p(1, 0), root), root), "root is a neighbour");
        assertEquals(Optional.of(p(1, 0)), CompassRouting.parent(k, List.of(p(1, 0), p(50, 1)), root));
        assertEquals(Optional.of(p(-1, 3)), CompassRouting.parent(k, List.of(p(-1, 3), p(-3, -1)), root), "~108° < ~162°");
        assertEquals(Optional.of(p(10, -10)), CompassRouting.parent(k, List.of(p(1, 1), p(10, -10)), root),
                "equal 45° angles: closer to the root wins");
        assertEquals(Optional.of(p(0, -1)), CompassRouting.parent(k, List.of(p(0, 1), p(0, -1)), root),
                "equal angles and distances: lexicographically smaller wins");
        assertEquals(Optional.empty(), CompassRouting.parent(k, List.of(p(1, 0)), k), "the root has no parent");
        assertEquals(Optional.empty(), CompassRouting.parent(k, List.of(), root));
        assertThrows(IllegalArgumentException.class, () -> CompassRouting.parent(k, List.of(k), root));
    }

    @Test
    void greedyShouldStopAtTheNearestNodeAndBreakTiesLexicographically() {
        DtAddress k = p(0, 0);
        assertEquals(Optional.empty(), CompassRouting.nextHopGreedy(k, List.of(p(4, 0), p(0, 4)), p(1, 1)));
        assertEquals(Optional.empty(), CompassRouting.nextHopGreedy(k, List.of(p(4, 0)), p(2, 0)), "tie with k: stay");
        assertEquals(Optional.of(p(0, 4)), CompassRouting.nextHopGreedy(k, List.of(p(4, 0), p(0, 4)), p(3, 3)),
                "equidistant: lexicographically smaller wins");
        assertEquals(Optional.of(p(4, 0)), CompassRouting.nextHopGreedy(k, List.of(p(4, 0), p(0, 4)), p(3, 1)));
    }

    @Test
    void leaderRuleShouldElectOneLeaderPerComponent() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        List<Triangulation> components = List.of(
                DelaunayOracle.bruteForce(DelaunayOracle.randomPoints(random, 30, 0, 1000)),
                DelaunayOracle.bruteForce(DelaunayOracle.randomPoints(random, 30, 5000, 6000)));
        List<DtAddress> leaders = new ArrayList<>();
        for (Triangulation t : components) {
            t.neighbours().forEach((k, ns) -> {
                if (Leader.isLeader(k, ns)) {
                    leaders.add(k);
                }
            });
        }
        assertEquals(List.of(components.get(0).points().stream().max(Predicates.LEXICOGRAPHIC).orElseThrow(),
                components.get(1).points().stream().max(Predicates.LEXICOGRAPHIC).orElseThrow()), leaders,
                "seed=" + seed);
        assertTrue(Leader.isLeader(p(5, 1), List.of(p(5, 0), p(4, 9))));
        assertTrue(!Leader.isLeader(p(5, 1), List.of(p(5, 2))), "same x, greater y wins");
    }
}
