package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NeighbourTestTest {

    private static final int CASES = Integer.getInteger("statecast.fuzz.cases", 50_000);

    private static DtAddress p(int x, int y) {
        return new DtAddress(x, y);
    }

    /** The test exactly as the design brief states it: all (l, r) pairs. */
    private static boolean pairwiseReference(DtAddress k, List<DtAddress> neighbours, DtAddress c) {
        if (c.equals(k)) {
            return false;
        }
        Set<DtAddress> s = new LinkedHashSet<>(neighbours);
        s.add(c);
        s.remove(k);
        List<DtAddress> left = new ArrayList<>();
        List<DtAddress> right = new ArrayList<>();
        for (DtAddress q : s) {
            if (Predicates.strictlyBetween(k, c, q)) {
                return false;
            }
            int side = Predicates.orientation(k, c, q);
            if (side > 0) {
                left.add(q);
            } else if (side < 0) {
                right.add(q);
            }
        }
        for (DtAddress l : left) {
            for (DtAddress r : right) {
                if (Predicates.insideCircle(k, l, c, r)) {
                    return false;
                }
            }
        }
        return true;
    }

    @Test
    void shouldAgreeWithThePairwiseDefinitionOnDegenerateAndWideSets() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int i = 0; i < CASES / 5; i++) {
            // Alternate a 5×5 grid (collinear and cocircular everywhere) with wide random points.
            boolean grid = i % 2 == 0;
            List<DtAddress> pool = grid
                    ? Layouts.lattice(5, 5, i % 4 == 0 ? 0 : Integer.MAX_VALUE - 4, 0, 1)
                    : DelaunayOracle.randomPoints(random, 25, Integer.MIN_VALUE, Integer.MAX_VALUE);
            DtAddress k = pool.get(random.nextInt(pool.size()));
            DtAddress c = pool.get(random.nextInt(pool.size()));
            List<DtAddress> neighbours = Layouts.sample(pool, random.nextInt(13), random);
            boolean expected = pairwiseReference(k, neighbours, c);
            assertEquals(expected, NeighbourTest.passes(k, neighbours, c),
                    "seed=" + seed + " case=" + i + " k=" + k + " c=" + c + " N=" + neighbours);
        }
    }

    @Test
    void nearerPointOnTheSameRayShouldBlockAndFartherShouldNot() {
        DtAddress k = p(0, 0);
        List<DtAddress> neighbours = List.of(p(2, 2), p(5, -1));
        assertFalse(NeighbourTest.passes(k, neighbours, p(4, 4)), "(2,2) lies inside segment k-(4,4)");
        assertEquals(Optional.of(p(2, 2)), NeighbourTest.blocker(k, neighbours, p(4, 4)));
        assertTrue(NeighbourTest.passes(k, neighbours, p(1, 1)), "(2,2) beyond (1,1) constrains nothing");
        assertEquals(Optional.empty(), NeighbourTest.blocker(k, neighbours, p(1, 1)));
        assertEquals(Optional.of(p(1, 1)),
                NeighbourTest.blocker(k, List.of(p(3, 3), p(1, 1), p(2, 2)), p(4, 4)), "nearest blocker");
    }

    @Test
    void emptySideShouldNeverBlock() {
        DtAddress k = p(0, 0);
        // Everything on the right of k→(10,0), far inside any circle: still a hull edge.
        List<DtAddress> right = List.of(p(5, -1), p(1, -30), p(9, -2));
        assertTrue(NeighbourTest.passes(k, right, p(10, 0)));
        assertTrue(NeighbourTest.passes(k, List.of(), p(10, 0)), "no neighbours at all");
    }

    @Test
    void pointInsideTheCircleOnTheOtherSideShouldBlock() {
        DtAddress k = p(0, 0);
        DtAddress c = p(10, 0);
        // (5,5) on the left; circle through k, (5,5), c is centred at (5,0) with radius 5.
        assertFalse(NeighbourTest.passes(k, List.of(p(5, 5), p(5, -4)), c), "(5,-4) strictly inside");
        assertTrue(NeighbourTest.passes(k, List.of(p(5, 5), p(5, -6)), c), "(5,-6) strictly outside");
        // (5,-5) is on the circle: the rule decides; lexicographic smallest k=(0,0) is outside, the
        // quad k,(5,-5),c,(5,5) gets the diagonal (5,-5)-(5,5), so k-c is not an edge.
        assertFalse(NeighbourTest.passes(k, List.of(p(5, 5), p(5, -5)), c));
        assertTrue(NeighbourTest.passes(k, List.of(p(5, 5), p(5, -5)), p(5, 5)));
    }

    @Test
    void shouldIgnoreTheNodeItselfAndDuplicates() {
        DtAddress k = p(1, 1);
        assertFalse(NeighbourTest.passes(k, List.of(), k));
        assertTrue(NeighbourTest.passes(k, List.of(k, p(3, 3), p(3, 3)), p(3, 3)));
        assertEquals(Set.of(p(3, 3), p(0, 5)),
                NeighbourTest.localNeighbours(k, List.of(k, p(3, 3), p(0, 5), p(3, 3), p(5, 5))));
    }

    @Test
    void addingACloserPointShouldEvictTheNeighboursItHides() {
        DtAddress k = p(0, 0);
        List<DtAddress> before = List.of(p(10, 0), p(0, 10), p(-10, 0), p(0, -10));
        assertEquals(Set.copyOf(before), NeighbourTest.localNeighbours(k, before));
        List<DtAddress> after = new ArrayList<>(before);
        after.add(p(4, 0)); // blocks (10,0)
        assertEquals(Set.of(p(4, 0), p(0, 10), p(-10, 0), p(0, -10)), NeighbourTest.localNeighbours(k, after));
    }
}
