package io.statecast.overlay.node.dt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.node.dt.DelaunayOracle.Edge;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangulation;
import io.statecast.overlay.sim.DelaunayCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The main-scope judge of {@code statecast sim} ({@link DelaunayCheck}) against the test-scope
 * oracles: it accepts their triangulations and refuses every kind of wrong graph.
 */
class DelaunayCheckTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    private static Map<DtAddress, Set<DtAddress>> copy(Map<DtAddress, Set<DtAddress>> g) {
        Map<DtAddress, Set<DtAddress>> c = new HashMap<>();
        g.forEach((k, v) -> c.put(k, new HashSet<>(v)));
        return c;
    }

    private static void assertAccepts(Triangulation t, String ctx) {
        DelaunayCheck.Result r = DelaunayCheck.check(t.points(), t.neighbours());
        assertTrue(r.matches(), () -> r.problem() + "; " + ctx + "; seed=" + SEED);
        assertEquals(t.edges().size(), r.edges());
    }

    private static void assertRefuses(List<DtAddress> points, Map<DtAddress, Set<DtAddress>> g, String ctx) {
        DelaunayCheck.Result r = DelaunayCheck.check(points, g);
        assertFalse(r.matches(), () -> "accepted a wrong graph: " + ctx + "; seed=" + SEED);
    }

    @Test
    void shouldAcceptTheOracleTriangulations() {
        Random r = new Random(SEED);
        for (int n : new int[] {1, 2, 3, 4, 10, 50, 300}) {
            List<DtAddress> pts = DelaunayOracle.randomPoints(r, n, 0, 10_000);
            assertAccepts(n <= 50 ? DelaunayOracle.bruteForce(pts) : DelaunayOracle.jts(pts), "random N=" + n);
        }
        assertAccepts(DelaunayOracle.bruteForce(Layouts.lattice(6, 6, 0, 0, 10)), "lattice");
        assertAccepts(DelaunayOracle.bruteForce(Layouts.line(12, 0, 0, 3, 7, r)), "line");
        assertAccepts(DelaunayOracle.bruteForce(Layouts.circle(5, 100, 100, 10)), "circle");
    }

    @Test
    void shouldRefuseMissingExtraFlippedAndOneSidedEdges() {
        Random r = new Random(SEED);
        List<DtAddress> pts = DelaunayOracle.randomPoints(r, 40, 0, 10_000);
        Triangulation t = DelaunayOracle.bruteForce(pts);
        List<Edge> edges = new ArrayList<>(t.edges());
        Edge e = edges.get(r.nextInt(edges.size()));

        Map<DtAddress, Set<DtAddress>> missing = copy(t.neighbours());
        missing.get(e.a()).remove(e.b());
        missing.get(e.b()).remove(e.a());
        assertRefuses(pts, missing, "edge " + e + " missing");

        Map<DtAddress, Set<DtAddress>> oneSided = copy(t.neighbours());
        oneSided.get(e.a()).remove(e.b());
        assertRefuses(pts, oneSided, "edge " + e + " one-sided");

        Map<DtAddress, Set<DtAddress>> extra = copy(t.neighbours());
        outer:
        for (DtAddress a : pts) {
            for (DtAddress b : pts) {
                if (!a.equals(b) && !extra.get(a).contains(b)) {
                    extra.get(a).add(b);
                    extra.get(b).add(a);
                    break outer;
                }
            }
        }
        assertRefuses(pts, extra, "an extra edge");

        // the other diagonal of a lattice square: a Delaunay triangulation, but not under our rule
        List<DtAddress> square = List.of(new DtAddress(0, 0), new DtAddress(1, 0), new DtAddress(0, 1), new DtAddress(1, 1));
        Map<DtAddress, Set<DtAddress>> flipped = copy(DelaunayOracle.bruteForce(square).neighbours());
        assertTrue(flipped.get(new DtAddress(1, 0)).contains(new DtAddress(0, 1)), "the rule's diagonal avoids the smallest corner");
        flipped.get(new DtAddress(1, 0)).remove(new DtAddress(0, 1));
        flipped.get(new DtAddress(0, 1)).remove(new DtAddress(1, 0));
        flipped.get(new DtAddress(0, 0)).add(new DtAddress(1, 1));
        flipped.get(new DtAddress(1, 1)).add(new DtAddress(0, 0));
        assertRefuses(square, flipped, "the other diagonal");

        List<DtAddress> line = List.of(new DtAddress(0, 0), new DtAddress(1, 1), new DtAddress(2, 2));
        Map<DtAddress, Set<DtAddress>> skip = new HashMap<>();
        skip.put(line.get(0), new HashSet<>(Set.of(line.get(2))));
        skip.put(line.get(2), new HashSet<>(Set.of(line.get(0))));
        skip.put(line.get(1), new HashSet<>());
        assertRefuses(line, skip, "a collinear edge that jumps a point");

        Map<DtAddress, Set<DtAddress>> partial = copy(t.neighbours());
        partial.remove(pts.get(0));
        assertRefuses(pts, partial, "a node without a neighbour set");
    }
}
