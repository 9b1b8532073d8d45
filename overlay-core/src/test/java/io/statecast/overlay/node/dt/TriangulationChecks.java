package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.node.dt.DelaunayOracle.Edge;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangle;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangulation;
import io.statecast.overlay.sim.DelaunayCheck;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Assertions shared by the triangulation tests; every message carries the caller's context. */
final class TriangulationChecks {

    private TriangulationChecks() {
    }

    /**
     * The oracle's result is a valid triangulation: planar; for non-collinear sets
     * E = 3N − 3 − h and T = 2N − 2 − h with h the hull boundary count, and the triangles' areas
     * add up to the hull's (with planarity: they tile the hull); a path otherwise.
     */
    static void assertValidTriangulation(Triangulation t, String ctx, boolean checkPlanarity) {
        int n = t.points().size();
        if (checkPlanarity) {
            assertNull(DelaunayOracle.planarityViolation(t.points(), t.edges()), "planarity; " + ctx);
        }
        if (t.triangles().isEmpty()) {
            assertEquals(Math.max(0, n - 1), t.edges().size(), "collinear set must be a path; " + ctx);
            for (Set<DtAddress> ns : t.neighbours().values()) {
                assertTrue(ns.size() <= 2, "path degree; " + ctx);
            }
            return;
        }
        int h = DelaunayCheck.hullBoundaryCount(t.points());
        assertEquals(3 * n - 3 - h, t.edges().size(), "E = 3N-3-h with h=" + h + "; " + ctx);
        assertEquals(2 * n - 2 - h, t.triangles().size(), "T = 2N-2-h with h=" + h + "; " + ctx);
        BigInteger area = BigInteger.ZERO;
        for (Triangle tri : t.triangles()) {
            assertTrue(tri.doubleArea().signum() > 0, "non-degenerate triangle " + tri + "; " + ctx);
            area = area.add(tri.doubleArea());
        }
        assertEquals(DelaunayCheck.hullDoubleArea(t.points()), area, "triangles tile the hull; " + ctx);
        assertTrue(2.0 * t.edges().size() / n < 6.0, "average degree < 6; " + ctx);
    }

    /**
     * The local test agrees with the global oracle: for each node in {@code nodes}, its local
     * Delaunay triangulation over all other points equals its oracle neighbours; for every node,
     * the oracle state is a fixed point of the neighbour test (each oracle neighbour passes
     * against the oracle neighbours, every other point fails).
     */
    static void assertLocalTestMatches(Triangulation t, Collection<DtAddress> nodes, String ctx) {
        Map<DtAddress, Set<DtAddress>> oracle = t.neighbours();
        for (DtAddress k : nodes) {
            Set<DtAddress> local = NeighbourTest.localNeighbours(k, t.points());
            assertEquals(oracle.get(k), new HashSet<>(local), "local DT of " + k + " over all points; " + ctx);
            assertEquals(AngularOrder.counterClockwise(k, local), new ArrayList<>(local),
                    "localNeighbours iterates counter-clockwise; " + ctx);
        }
        for (DtAddress k : t.points()) {
            Set<DtAddress> mine = oracle.get(k);
            for (DtAddress c : t.points()) {
                if (c.equals(k)) {
                    continue;
                }
                boolean expected = mine.contains(c);
                assertEquals(expected, NeighbourTest.passes(k, mine, c),
                        "fixed point: " + c + (expected ? " must pass" : " must fail") + " at " + k + "; " + ctx);
                if (expected) {
                    assertTrue(oracle.get(c).contains(k), "symmetric " + k + "-" + c + "; " + ctx);
                }
            }
        }
    }

    /** Exactly one leader, the lexicographic maximum. */
    static void assertSingleLeader(Triangulation t, String ctx) {
        List<DtAddress> leaders = new ArrayList<>();
        t.neighbours().forEach((k, ns) -> {
            if (Leader.isLeader(k, ns)) {
                leaders.add(k);
            }
        });
        DtAddress max = t.points().stream().max(Predicates.LEXICOGRAPHIC).orElseThrow();
        assertEquals(List.of(max), leaders, "leaders; " + ctx);
    }

    /** Edge sets equal, with the differences in the message. */
    static void assertSameEdges(Set<Edge> expected, Set<Edge> actual, String ctx) {
        Set<Edge> missing = new HashSet<>(expected);
        missing.removeAll(actual);
        Set<Edge> extra = new HashSet<>(actual);
        extra.removeAll(expected);
        assertFalse(!missing.isEmpty() || !extra.isEmpty(), "missing " + missing + ", extra " + extra + "; " + ctx);
    }
}
