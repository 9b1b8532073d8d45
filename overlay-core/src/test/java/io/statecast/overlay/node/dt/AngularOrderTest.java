package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangle;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangulation;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AngularOrderTest {

    private static DtAddress p(int x, int y) {
        return new DtAddress(x, y);
    }

    @Test
    void shouldSortCounterClockwiseLikeAtan2OnDistinctDirections() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            DtAddress k = p(random.nextInt(21) - 10, random.nextInt(21) - 10);
            // Distinct primitive directions of small vectors: atan2 separates them by far more
            // than its rounding error, so it is a fair independent reference here.
            Set<String> directions = new HashSet<>();
            List<DtAddress> points = new ArrayList<>();
            while (points.size() < 12) {
                int dx = random.nextInt(41) - 20;
                int dy = random.nextInt(41) - 20;
                int g = BigInteger.valueOf(dx).gcd(BigInteger.valueOf(dy)).intValue();
                if (g != 0 && directions.add(dx / g + "," + dy / g)) {
                    points.add(p(k.x() + dx, k.y() + dy));
                }
            }
            List<DtAddress> expected = new ArrayList<>(points);
            expected.sort(Comparator.comparingDouble(q -> {
                double a = Math.atan2(q.y() - k.y(), q.x() - k.x());
                return a < 0 ? a + 2 * Math.PI : a;
            }));
            assertEquals(expected, AngularOrder.counterClockwise(k, points), "seed=" + seed + " round=" + round);
        }
    }

    @Test
    void shouldOrderPointsOnOneRayNearestFirst() {
        DtAddress k = p(0, 0);
        assertEquals(List.of(p(1, 0), p(2, 0), p(0, 1), p(-1, 0), p(-3, -3), p(-1, -3), p(0, -1), p(5, -1)),
                AngularOrder.counterClockwise(k,
                        List.of(p(5, -1), p(0, -1), p(-1, -3), p(-3, -3), p(-1, 0), p(0, 1), p(2, 0), p(1, 0))));
    }

    @Test
    void cwAndCcwShouldBeTheThirdCornersOfTheTrianglesOnAnEdge() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        List<Triangulation> sets = List.of(
                DelaunayOracle.bruteForce(Layouts.lattice(6, 6, 0, 0, 1)),
                DelaunayOracle.bruteForce(Layouts.sample(Layouts.lattice(7, 7, -3, -3, 1), 25, random)),
                DelaunayCrossCheckTest.generalPosition(random, 200, 0, 1 << 20));
        for (Triangulation t : sets) {
            String ctx = "seed=" + seed + " N=" + t.points().size();
            Map<DtAddress, Set<DtAddress>> nbrs = t.neighbours();
            Map<List<DtAddress>, DtAddress> thirdCorner = new java.util.HashMap<>();
            for (Triangle tri : t.triangles()) {
                thirdCorner.put(List.of(tri.a(), tri.b()), tri.c());
                thirdCorner.put(List.of(tri.b(), tri.c()), tri.a());
                thirdCorner.put(List.of(tri.c(), tri.a()), tri.b());
            }
            for (DtAddress k : t.points()) {
                for (DtAddress j : nbrs.get(k)) {
                    // In CCW triangle (k, j, m), m is counter-clockwise of j around k.
                    Optional<DtAddress> ccw = AngularOrder.ccw(k, nbrs.get(k), j);
                    Optional<DtAddress> cw = AngularOrder.cw(k, nbrs.get(k), j);
                    DtAddress left = thirdCorner.get(List.of(k, j));
                    DtAddress right = thirdCorner.get(List.of(j, k));
                    if (left != null) {
                        assertEquals(Optional.of(left), ccw, "ccw of " + j + " around " + k + "; " + ctx);
                    } else {
                        assertTrue(ccw.isEmpty() || Predicates.strictlyBetween(j, ccw.get(), k),
                                "hull side: absent or straight across; " + ctx);
                    }
                    if (right != null) {
                        assertEquals(Optional.of(right), cw, "cw of " + j + " around " + k + "; " + ctx);
                    } else {
                        assertTrue(cw.isEmpty() || Predicates.strictlyBetween(j, cw.get(), k),
                                "hull side: absent or straight across; " + ctx);
                    }
                }
            }
        }
    }

    @Test
    void hullCornerShouldMissOneSideAndPathShouldReportTheOppositeNodeOnBoth() {
        DtAddress k = p(0, 0);
        List<DtAddress> corner = List.of(p(10, 0), p(0, 10), p(4, 5));
        assertEquals(Optional.of(p(4, 5)), AngularOrder.ccw(k, corner, p(10, 0)));
        assertEquals(Optional.empty(), AngularOrder.cw(k, corner, p(10, 0)), "outside the hull");
        assertEquals(Optional.empty(), AngularOrder.ccw(k, corner, p(0, 10)));
        List<DtAddress> path = List.of(p(-3, 0), p(7, 0));
        assertEquals(Optional.of(p(-3, 0)), AngularOrder.ccw(k, path, p(7, 0)));
        assertEquals(Optional.of(p(-3, 0)), AngularOrder.cw(k, path, p(7, 0)));
        assertEquals(Optional.empty(), AngularOrder.cw(k, List.of(p(7, 0)), p(7, 0)), "single neighbour");
        // A collinear hull side: the neighbour straight across is preferred only if nothing is nearer.
        List<DtAddress> side = List.of(p(-3, 0), p(7, 0), p(1, -4));
        assertEquals(Optional.of(p(-3, 0)), AngularOrder.ccw(k, side, p(7, 0)));
        assertEquals(Optional.of(p(1, -4)), AngularOrder.cw(k, side, p(7, 0)));
    }

    @Test
    void pointsOnTheSameRayAsJShouldNotBeItsCwOrCcw() {
        DtAddress k = p(0, 0);
        List<DtAddress> transient_ = List.of(p(2, 2), p(4, 4), p(-1, 3));
        assertEquals(Optional.of(p(-1, 3)), AngularOrder.ccw(k, transient_, p(2, 2)));
        assertEquals(Optional.empty(), AngularOrder.cw(k, transient_, p(2, 2)));
        assertTrue(AngularOrder.onSameRay(k, p(2, 2), p(4, 4)));
        assertFalse(AngularOrder.onSameRay(k, p(2, 2), p(-4, -4)));
        assertFalse(AngularOrder.onSameRay(k, p(2, 2), p(4, 5)));
        assertThrows(IllegalArgumentException.class, () -> AngularOrder.ccw(k, List.of(k), p(1, 1)));
    }

    @Test
    void ccwShouldPickTheSmallestTurnAtTheIntLimits() {
        DtAddress k = p(Integer.MIN_VALUE, Integer.MIN_VALUE);
        DtAddress j = p(Integer.MAX_VALUE, Integer.MAX_VALUE - 1);
        List<DtAddress> ns = List.of(j, p(Integer.MAX_VALUE - 1, Integer.MAX_VALUE), p(Integer.MAX_VALUE - 1, Integer.MAX_VALUE - 1),
                p(Integer.MIN_VALUE, Integer.MAX_VALUE));
        assertEquals(Optional.of(p(Integer.MAX_VALUE - 1, Integer.MAX_VALUE - 1)), AngularOrder.ccw(k, ns, j));
        assertEquals(Optional.empty(), AngularOrder.cw(k, ns, j));
    }
}
