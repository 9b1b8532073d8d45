package io.statecast.overlay.node.dt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.node.dt.DelaunayOracle.Edge;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangulation;
import io.statecast.overlay.sim.DelaunayCheck;
import io.statecast.overlay.sim.DtSimulation;
import io.statecast.overlay.socket.OverlaySocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks of a whole simulated DT overlay against the test-scope oracles. */
final class DtOverlayAssertions {

    private DtOverlayAssertions() {
    }

    /** Settled (every node STABLE, relations mutual) with exactly one leader. */
    static boolean converged(DtSimulation sim) {
        return sim.quiescent() && leaders(sim) == 1;
    }

    static long leaders(DtSimulation sim) {
        return sim.alive().stream().filter(s -> s.topology().leader()).count();
    }

    /** Runs until {@link #converged} or fails with the seed and every node's view. */
    static void awaitConvergence(DtSimulation sim, Duration within, String ctx) {
        long fastMs = sim.template().heartbeat().fastMs();
        boolean ok = sim.runUntil(() -> converged(sim), within, Duration.ofMillis(fastMs));
        assertTrue(ok, () -> "no convergence within " + within + "; " + ctx + "; " + sim.describe());
    }

    /** The oracle: brute force for small or degenerate sets, JTS otherwise (same rule where they can differ). */
    static Triangulation oracle(List<DtAddress> points) {
        if (points.size() <= 60) {
            return DelaunayOracle.bruteForce(points);
        }
        Triangulation jts = DelaunayOracle.jts(points);
        return DelaunayOracle.uniquelyDelaunay(jts) ? jts : DelaunayOracle.bruteForce(points);
    }

    /**
     * Every node's neighbours equal the oracle's, relations are symmetric, E = 3N − 3 − h (a path
     * when collinear), exactly one leader — the lexicographic maximum — and the main-scope check
     * of {@code statecast sim} agrees.
     */
    static void assertDelaunay(DtSimulation sim, String ctx) {
        List<DtAddress> points = sim.points();
        String where = ctx + "; seed=" + sim.seed();
        Map<DtAddress, Set<DtAddress>> graph = sim.neighbourGraph();
        Triangulation t = oracle(points);
        Set<Edge> actual = new HashSet<>();
        graph.forEach((k, ns) -> ns.forEach(j -> {
            assertTrue(graph.containsKey(j) && graph.get(j).contains(k), () -> "asymmetric " + k + "-" + j + "; " + where);
            actual.add(Edge.of(k, j));
        }));
        TriangulationChecks.assertSameEdges(t.edges(), actual, where);
        int n = points.size();
        if (t.triangles().isEmpty()) {
            assertEquals(Math.max(0, n - 1), actual.size(), "collinear: a path; " + where);
        } else {
            int h = DelaunayCheck.hullBoundaryCount(points);
            assertEquals(3 * n - 3 - h, actual.size(), "E = 3N-3-h, h=" + h + "; " + where);
        }
        DtAddress max = points.stream().max(Predicates.LEXICOGRAPHIC).orElseThrow();
        List<LogicalAddress> leaders = sim.alive().stream().filter(s -> s.topology().leader())
                .map(s -> s.node().localAddress()).toList();
        assertEquals(List.of(max), leaders, "one leader, the lexicographic maximum; " + where);
        DelaunayCheck.Result check = DelaunayCheck.check(points, graph);
        assertTrue(check.matches(), () -> "main-scope check disagrees: " + check.problem() + "; " + where);
    }

    /**
     * The tree rooted at {@code root}: every node reaches it through parents (each an overlay
     * edge) within N steps; N − 1 tree edges; k ∈ children(p) at p ⇔ parent(k) = p at k.
     *
     * @return the largest depth
     */
    static int assertTree(DtSimulation sim, DtAddress root, String ctx) {
        String where = ctx + "; root=" + root + "; seed=" + sim.seed();
        Map<DtAddress, Topology> views = new HashMap<>();
        for (OverlaySocket s : sim.alive()) {
            views.put((DtAddress) s.node().localAddress(), s.topology());
        }
        int treeEdges = 0;
        for (Map.Entry<DtAddress, Topology> e : views.entrySet()) {
            DtAddress k = e.getKey();
            LogicalAddress p = e.getValue().parent(root);
            if (k.equals(root)) {
                assertEquals(null, p, "the root has no parent; " + where);
                continue;
            }
            assertNotNull(p, () -> k + " has no parent; " + where);
            assertTrue(e.getValue().isNeighbour(p), () -> "parent of " + k + " is not a neighbour; " + where);
            treeEdges++;
        }
        assertEquals(views.size() - 1, treeEdges, "N-1 tree edges; " + where);
        for (Map.Entry<DtAddress, Topology> e : views.entrySet()) {
            DtAddress p = e.getKey();
            Set<LogicalAddress> children = new HashSet<>(e.getValue().children(root));
            for (LogicalAddress n : e.getValue().neighbours()) {
                boolean isChild = p.equals(views.get((DtAddress) n).parent(root));
                assertEquals(isChild, children.contains(n),
                        () -> n + (isChild ? " has parent " : " does not have parent ") + p + " but children(" + root + ") at "
                                + p + " = " + children + "; " + where);
            }
        }
        int maxDepth = 0;
        for (DtAddress k : views.keySet()) {
            DtAddress at = k;
            int depth = 0;
            while (!at.equals(root)) {
                at = (DtAddress) views.get(at).parent(root);
                depth++;
                if (depth > views.size()) {
                    throw new AssertionError("parents from " + k + " loop; " + where);
                }
            }
            maxDepth = Math.max(maxDepth, depth);
        }
        return maxDepth;
    }
}
