package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.node.dt.DelaunayOracle.Edge;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangulation;
import io.statecast.overlay.sim.DelaunayCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Degenerate point sets, where the Delaunay triangulation is not unique and only the
 * cocircularity rule makes it so: the local test must agree with the brute-force global oracle
 * (same rule, different definition) and the result must be a valid triangulation.
 */
class DegenerateLayoutsTest {

    private static final int MIN = Integer.MIN_VALUE;
    private static final int MAX = Integer.MAX_VALUE;
    /** (2^32 − 1) / 5: six lattice columns from MIN reach MAX exactly. */
    private static final long FULL_RANGE_STEP = 858_993_459L;

    private static DtAddress p(int x, int y) {
        return new DtAddress(x, y);
    }

    /** Brute-force oracle, validity, local test over all points, fixed point, single leader. */
    private static Triangulation check(List<DtAddress> points, String ctx) {
        Triangulation t = DelaunayOracle.bruteForce(points);
        TriangulationChecks.assertValidTriangulation(t, ctx, true);
        TriangulationChecks.assertLocalTestMatches(t, t.points(), ctx);
        TriangulationChecks.assertSingleLeader(t, ctx);
        return t;
    }

    @Test
    void collinearPointsShouldFormAPath() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        long[][] lines = {
                {0, 0, 1, 0}, {5, -3, 0, 7}, {-10, 4, 3, 7}, {100, 100, -2, 1},
                {MIN, MIN, 226_050_910L, 226_050_910L}, // 20 points spanning the diagonal
                {MIN, 0, 226_050_910L, 0}};
        for (long[] l : lines) {
            List<DtAddress> points = Layouts.line(20, l[0], l[1], l[2], l[3], random);
            String ctx = "seed=" + seed + " line " + java.util.Arrays.toString(l);
            Triangulation t = check(points, ctx);
            assertTrue(t.triangles().isEmpty(), ctx);
            // The path visits the points in their order along the line.
            List<DtAddress> sorted = new ArrayList<>(points);
            sorted.sort(Predicates.LEXICOGRAPHIC);
            for (int i = 0; i + 1 < sorted.size(); i++) {
                assertTrue(t.edges().contains(Edge.of(sorted.get(i), sorted.get(i + 1))), ctx);
            }
        }
    }

    @Test
    void fullLatticeShouldGetTheDiagonalAvoidingEachSquaresSmallestCorner() {
        List<DtAddress> points = Layouts.lattice(10, 10, 0, 0, 1);
        Triangulation t = check(points, "10x10 lattice");
        // h = 36 boundary points (corners and collinear edge points): E = 300 − 3 − 36.
        assertEquals(36, DelaunayCheck.hullBoundaryCount(points));
        assertEquals(261, t.edges().size());
        for (int x = 0; x < 9; x++) {
            for (int y = 0; y < 9; y++) {
                assertTrue(t.edges().contains(Edge.of(p(x + 1, y), p(x, y + 1))), "square at " + x + "," + y);
                assertFalse(t.edges().contains(Edge.of(p(x, y), p(x + 1, y + 1))), "square at " + x + "," + y);
            }
        }
    }

    @Test
    void latticeSpanningTheWholeIntRangeShouldTriangulateExactly() {
        List<DtAddress> points = Layouts.lattice(6, 6, MIN, MIN, FULL_RANGE_STEP);
        assertTrue(points.contains(p(MAX, MAX)) && points.contains(p(MIN, MIN)));
        Triangulation t = check(points, "6x6 lattice over the int range");
        assertEquals(3 * 36 - 3 - 20, t.edges().size());
    }

    @Test
    void randomSubsetsOfSmallLatticesShouldMatchTheOracle() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        int rounds = Boolean.getBoolean("statecast.soak") ? 400 : 60;
        long[][] frames = {{0, 0, 1}, {MAX - 6, MAX - 6, 1}, {MIN, MIN, 1}, {MIN, MIN, FULL_RANGE_STEP}, {-3, -3, 1 << 20}};
        for (int i = 0; i < rounds; i++) {
            long[] f = frames[i % frames.length];
            int side = f[2] == FULL_RANGE_STEP ? 6 : 7;
            int n = 1 + random.nextInt(side * side);
            List<DtAddress> points = Layouts.sample(Layouts.lattice(side, side, f[0], f[1], f[2]), n, random);
            check(points, "seed=" + seed + " round=" + i + " points=" + points);
        }
    }

    @Test
    void cocircularPointsShouldBeTriangulatedConsistently() {
        // 36 lattice points on one circle (convex, all cocircular): any triangulation is Delaunay.
        List<DtAddress> ring = Layouts.circle(65, 0, 0, 1);
        Triangulation t = check(ring, "circle r=65");
        assertEquals(ring.size() - 2, t.triangles().size());
        // The same ring scaled to span most of the int range, plus its centre.
        List<DtAddress> wheel = new ArrayList<>(Layouts.circle(5, -1, 1, 1 << 28));
        wheel.add(p(-1, 1));
        Triangulation w = check(wheel, "scaled circle r=5 with centre");
        assertEquals(wheel.size() - 1, w.neighbours().get(p(-1, 1)).size(), "centre sees the whole ring");
    }

    @Test
    void tinySetsShouldBehave() {
        DtAddress a = p(3, 4);
        assertEquals(Set.of(), NeighbourTest.localNeighbours(a, List.of(a)), "N=1");
        assertTrue(Leader.isLeader(a, List.of()));
        check(List.of(a), "N=1");
        check(List.of(a, p(MIN, MAX)), "N=2");
        Triangulation tri = check(List.of(a, p(MIN, MAX), p(MAX, MIN)), "N=3 triangle");
        assertEquals(3, tri.edges().size());
        Triangulation path = check(List.of(p(0, 0), p(MAX, MAX), p(MIN, MIN)), "N=3 collinear");
        assertEquals(Set.of(Edge.of(p(MIN, MIN), p(0, 0)), Edge.of(p(0, 0), p(MAX, MAX))), path.edges());
    }

    @Test
    void extremeCornersAndRandomFullRangePointsShouldMatchTheOracle() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        List<DtAddress> points = new ArrayList<>(List.of(p(MIN, MIN), p(MAX, MIN), p(MAX, MAX), p(MIN, MAX),
                p(0, 0), p(-1, -1), p(MIN, 0), p(MAX, MAX - 1), p(MAX - 1, MAX - 2)));
        check(points, "extreme corners");
        for (DtAddress q : DelaunayOracle.randomPoints(random, 31, MIN, MAX)) {
            if (!points.contains(q)) {
                points.add(q);
            }
        }
        check(points, "seed=" + seed + " extreme corners plus random points");
    }
}
