package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PredicatesTest {

    private static final int MIN = Integer.MIN_VALUE;
    private static final int MAX = Integer.MAX_VALUE;
    private static final int CASES = Integer.getInteger("statecast.fuzz.cases", 50_000);
    /** E^i for E = 2^100, the reciprocal of the concrete ε of {@link #perturbedReference}. */
    private static final BigInteger[] EPSILON_INVERSE_POWERS = new BigInteger[6];

    static {
        for (int i = 0; i < EPSILON_INVERSE_POWERS.length; i++) {
            EPSILON_INVERSE_POWERS[i] = BigInteger.TWO.pow(100 * i);
        }
    }

    private static DtAddress p(int x, int y) {
        return new DtAddress(x, y);
    }

    // ---------------------------------------------------------------- independent references

    private static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }

    private static int orientationReference(DtAddress a, DtAddress b, DtAddress c) {
        BigInteger[][] m = {
                {big(a.x()), big(a.y()), BigInteger.ONE},
                {big(b.x()), big(b.y()), BigInteger.ONE},
                {big(c.x()), big(c.y()), BigInteger.ONE}};
        return determinant(m).signum();
    }

    private static BigInteger lift(DtAddress p) {
        return big(p.x()).pow(2).add(big(p.y()).pow(2));
    }

    /** The textbook 4×4 determinant with rows (x, y, x² + y², 1), no translation trick. */
    private static int inCircleReference(DtAddress a, DtAddress b, DtAddress c, DtAddress d) {
        DtAddress[] pts = {a, b, c, d};
        BigInteger[][] m = new BigInteger[4][];
        for (int i = 0; i < 4; i++) {
            m[i] = new BigInteger[] {big(pts[i].x()), big(pts[i].y()), lift(pts[i]), BigInteger.ONE};
        }
        return determinant(m).signum();
    }

    /**
     * The perturbed determinant with a concrete, tiny ε = 1/E: lifts become
     * (x² + y²)·E⁵ + E^(4 − rank) (the whole column scaled by E⁵, which keeps the sign). With
     * E = 2^100, far above any cofactor, the sign equals the symbolic one.
     */
    private static int perturbedReference(DtAddress a, DtAddress b, DtAddress c, DtAddress d) {
        DtAddress[] pts = {a, b, c, d};
        DtAddress[] sorted = pts.clone();
        Arrays.sort(sorted, Predicates.LEXICOGRAPHIC);
        BigInteger[][] m = new BigInteger[4][];
        for (int i = 0; i < 4; i++) {
            int rank = Arrays.asList(sorted).indexOf(pts[i]);
            BigInteger perturbedLift = lift(pts[i]).multiply(EPSILON_INVERSE_POWERS[5])
                    .add(EPSILON_INVERSE_POWERS[4 - rank]);
            m[i] = new BigInteger[] {big(pts[i].x()), big(pts[i].y()), perturbedLift, BigInteger.ONE};
        }
        return determinant(m).signum();
    }

    /** Compares angles through their cosines: dot/|v| (|u| is common), squared with signs. */
    private static int angleReference(DtAddress apex, DtAddress a, DtAddress b, DtAddress toward) {
        BigInteger ux = big((long) toward.x() - apex.x());
        BigInteger uy = big((long) toward.y() - apex.y());
        BigInteger ax = big((long) a.x() - apex.x());
        BigInteger ay = big((long) a.y() - apex.y());
        BigInteger bx = big((long) b.x() - apex.x());
        BigInteger by = big((long) b.y() - apex.y());
        BigInteger aDot = ux.multiply(ax).add(uy.multiply(ay));
        BigInteger bDot = ux.multiply(bx).add(uy.multiply(by));
        BigInteger aLen2 = ax.pow(2).add(ay.pow(2));
        BigInteger bLen2 = bx.pow(2).add(by.pow(2));
        BigInteger aKey = aDot.pow(2).multiply(bLen2).multiply(big(aDot.signum()));
        BigInteger bKey = bDot.pow(2).multiply(aLen2).multiply(big(bDot.signum()));
        return -aKey.compareTo(bKey); // larger cosine = smaller angle
    }

    private static BigInteger determinant(BigInteger[][] m) {
        int n = m.length;
        if (n == 1) {
            return m[0][0];
        }
        BigInteger sum = BigInteger.ZERO;
        for (int col = 0; col < n; col++) {
            BigInteger[][] minor = new BigInteger[n - 1][n - 1];
            for (int r = 1; r < n; r++) {
                for (int c = 0, cc = 0; c < n; c++) {
                    if (c != col) {
                        minor[r - 1][cc++] = m[r][c];
                    }
                }
            }
            BigInteger term = m[0][col].multiply(determinant(minor));
            sum = col % 2 == 0 ? sum.add(term) : sum.subtract(term);
        }
        return sum;
    }

    // ---------------------------------------------------------------- generators

    /** Coordinates that stress overflow, the 2^30 fast-path boundary and degeneracies. */
    private static int coordinate(Random r, long base) {
        long v = switch (r.nextInt(6)) {
            case 0 -> r.nextInt();
            case 1 -> new int[] {MIN, MIN + 1, MIN + 2, -2, -1, 0, 1, 2, MAX - 2, MAX - 1, MAX}[r.nextInt(11)];
            case 2 -> base + r.nextInt(7) - 3;
            case 3 -> base + (r.nextBoolean() ? 1 : -1) * ((1L << 30) + r.nextInt(3) - 1);
            case 4 -> base + (r.nextBoolean() ? 1 : -1) * ((1L << 29) + r.nextInt(3) - 1);
            default -> base + (r.nextInt(2001) - 1000) * (long) (1 + r.nextInt(1 << 20));
        };
        return (int) Math.max(MIN, Math.min(MAX, v));
    }

    private static DtAddress point(Random r, long base) {
        return p(coordinate(r, base), coordinate(r, base));
    }

    // ---------------------------------------------------------------- fuzz against references

    @Test
    void shouldMatchBigIntegerReferencesOverTheWholeIntRange() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            long base = r.nextInt();
            DtAddress a = point(r, base);
            DtAddress b = point(r, base);
            DtAddress c = point(r, base);
            DtAddress d = point(r, base);
            String ctx = "seed=" + seed + " case=" + i + " a=" + a + " b=" + b + " c=" + c + " d=" + d;
            assertEquals(orientationReference(a, b, c), Predicates.orientation(a, b, c), ctx);
            assertEquals(inCircleReference(a, b, c, d), Predicates.inCircleExact(a, b, c, d), ctx);
            assertEquals(perturbedReference(a, b, c, d), Predicates.inCircle(a, b, c, d), ctx);
            assertEquals(big((long) a.x() - d.x()).pow(2).add(big((long) a.y() - d.y()).pow(2))
                            .compareTo(big((long) b.x() - d.x()).pow(2).add(big((long) b.y() - d.y()).pow(2))),
                    Predicates.compareDistance(a, b, d), ctx);
            if (!a.equals(d) && !b.equals(d) && !c.equals(d)) {
                assertEquals(angleReference(d, a, b, c), Predicates.compareAngle(d, a, b, c), ctx);
            }
        }
    }

    @Test
    void shouldResolveCocircularityOnSmallGridsLikeTheConcreteEpsilonReference() {
        // Small grids are cocircular and collinear everywhere: every branch of the rule is hit.
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random r = new Random(seed);
        int[] offsets = {MIN, -7, 0, MAX - 3};
        for (int i = 0; i < CASES; i++) {
            int ox = offsets[r.nextInt(offsets.length)];
            int oy = offsets[r.nextInt(offsets.length)];
            DtAddress[] q = new DtAddress[4];
            for (int k = 0; k < 4; k++) {
                q[k] = p(ox + r.nextInt(4), oy + r.nextInt(4));
            }
            String ctx = "seed=" + seed + " case=" + i + " " + Arrays.toString(q);
            assertEquals(perturbedReference(q[0], q[1], q[2], q[3]),
                    Predicates.inCircle(q[0], q[1], q[2], q[3]), ctx);
        }
    }

    // ---------------------------------------------------------------- the cocircularity rule

    /** Lattice points on x² + y² = 65² (65 = 5·13 has many representations). */
    private static List<int[]> circle65() {
        List<int[]> list = new ArrayList<>();
        for (int x = -65; x <= 65; x++) {
            for (int y = -65; y <= 65; y++) {
                if (x * x + y * y == 65 * 65) {
                    list.add(new int[] {x, y});
                }
            }
        }
        return list;
    }

    @Test
    void shouldSplitFourCocircularPointsByTheDiagonalAvoidingTheSmallest() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random r = new Random(seed);
        List<int[]> circle = circle65();
        assertTrue(circle.size() >= 12, "test set-up: lattice points on the circle");
        long[][] frames = {{0, 0, 1}, {MAX - 70, MIN + 70, 1}, {0, 0, 1 << 24}, {-1, 1, 1 << 24}};
        for (int i = 0; i < 2_000; i++) {
            long[] frame = frames[r.nextInt(frames.length)];
            DtAddress center = p((int) frame[0], (int) frame[1]);
            List<DtAddress> four = new ArrayList<>();
            while (four.size() < 4) {
                int[] c = circle.get(r.nextInt(circle.size()));
                DtAddress q = p((int) (frame[0] + c[0] * frame[2]), (int) (frame[1] + c[1] * frame[2]));
                if (!four.contains(q)) {
                    four.add(q);
                }
            }
            String ctx = "seed=" + seed + " case=" + i + " " + four;
            assertEquals(0, Predicates.inCircleExact(four.get(0), four.get(1), four.get(2), four.get(3)),
                    "cocircular: " + ctx);
            // Rotate the circle order so that it starts at the smallest point s: s, n1, o, n2.
            List<DtAddress> ring = AngularOrder.counterClockwise(center, four);
            DtAddress s = four.stream().min(Predicates.LEXICOGRAPHIC).orElseThrow();
            int at = ring.indexOf(s);
            DtAddress n1 = ring.get((at + 1) % 4);
            DtAddress o = ring.get((at + 2) % 4);
            DtAddress n2 = ring.get((at + 3) % 4);
            // Diagonal n1–n2 wins: both its triangles have empty circles...
            assertFalse(Predicates.insideCircle(n1, o, n2, s), "s outside; " + ctx);
            assertFalse(Predicates.insideCircle(s, n1, n2, o), "o outside; " + ctx);
            // ...and diagonal s–o loses: each of its triangles has the fourth point inside.
            assertTrue(Predicates.insideCircle(s, n1, o, n2), "n2 inside; " + ctx);
            assertTrue(Predicates.insideCircle(s, o, n2, n1), "n1 inside; " + ctx);
        }
    }

    @Test
    void shouldSplitAUnitSquareAlongTheDiagonalAvoidingItsSmallestCorner() {
        DtAddress a = p(0, 0);
        DtAddress b = p(1, 0);
        DtAddress c = p(1, 1);
        DtAddress d = p(0, 1);
        // (0,0) is raised most: outside circle(b, c, d), so triangle b-c-d is Delaunay; its
        // opposite (1,1) is outside circle(a, b, d), so a-b-d is too: the diagonal is b-d.
        assertFalse(Predicates.insideCircle(b, c, d, a));
        assertFalse(Predicates.insideCircle(a, b, d, c));
        assertTrue(Predicates.insideCircle(a, b, c, d));
        assertTrue(Predicates.insideCircle(a, c, d, b));
    }

    // ---------------------------------------------------------------- exact cases at the int limits

    @Test
    void shouldOrientExactlyWhereLongArithmeticOverflows() {
        DtAddress lo = p(MIN, MIN);
        DtAddress hi = p(MAX, MAX);
        assertEquals(0, Predicates.orientation(lo, hi, p(MAX - 1, MAX - 1)));
        assertEquals(0, Predicates.orientation(lo, hi, p(-1, -1)));
        assertEquals(-1, Predicates.orientation(lo, hi, p(MAX, MAX - 1)));
        assertEquals(1, Predicates.orientation(lo, hi, p(MAX - 1, MAX)));
        assertEquals(1, Predicates.orientation(lo, p(MAX, MIN), p(MIN, MAX)));
        assertEquals(-1, Predicates.orientation(lo, p(MIN, MAX), p(MAX, MIN)));
        // Cross product (2^32 − 1)(2^32 − 3) − (2^32 − 2)² = −1, from products near 2^64.
        assertEquals(-1, Predicates.orientation(lo, p(MAX, MAX - 1), p(MAX - 1, MAX - 2)));
    }

    @Test
    void shouldDecideInCircleExactlyForTheExtremeSquare() {
        DtAddress a = p(MIN, MIN);
        DtAddress b = p(MAX, MIN);
        DtAddress c = p(MAX, MAX);
        DtAddress d = p(MIN, MAX);
        assertEquals(0, Predicates.inCircleExact(a, b, c, d));
        assertTrue(Predicates.insideCircle(a, b, c, p(MIN + 1, MAX)));
        assertTrue(Predicates.insideCircle(a, b, c, p(0, 0)));
        assertFalse(Predicates.insideCircle(b, c, d, a), "smallest corner lies outside by the rule");
        assertFalse(Predicates.insideCircle(a, b, d, c), "and so does the opposite corner");
        assertTrue(Predicates.insideCircle(a, b, c, d));
        // A sliver at the extremes: d one unit off the circle through three near-collinear points.
        DtAddress s1 = p(MIN, 0);
        DtAddress s2 = p(MAX, 0);
        DtAddress s3 = p(0, 1);
        assertEquals(inCircleReference(s1, s2, s3, p(0, -1)), Predicates.inCircleExact(s1, s2, s3, p(0, -1)));
        assertEquals(inCircleReference(s1, s2, s3, p(MIN, -1)), Predicates.inCircleExact(s1, s2, s3, p(MIN, -1)));
    }

    @Test
    void shouldBreakPerturbationTiesOnlyWhenAllFourAreCollinearOrCoincide() {
        assertEquals(0, Predicates.inCircle(p(0, 0), p(1, 1), p(2, 2), p(5, 5)));
        assertEquals(0, Predicates.inCircle(p(0, 0), p(1, 0), p(0, 0), p(0, 1)));
        assertTrue(Predicates.inCircle(p(0, 0), p(1, 1), p(2, 2), p(5, 4)) != 0);
        assertFalse(Predicates.insideCircle(p(0, 0), p(1, 1), p(2, 2), p(1, 0)), "no circle through collinear points");
    }

    @Test
    void shouldCompareAnglesAcrossTheRightAngleAndAtTheStraightAngle() {
        DtAddress k = p(0, 0);
        DtAddress east = p(10, 0);
        assertEquals(-1, Predicates.compareAngle(k, p(1, 0), p(-1, 0), east), "0° < 180°");
        assertEquals(1, Predicates.compareAngle(k, p(-5, 0), p(3, 0), east));
        assertEquals(0, Predicates.compareAngle(k, p(1, 1), p(3, -3), east), "+45° and −45°");
        assertEquals(-1, Predicates.compareAngle(k, p(-1, 5), p(-5, 1), east), "~101° < ~169°");
        assertEquals(1, Predicates.compareAngle(k, p(-1, -5), p(0, 7), east), "~101° > 90°");
        assertEquals(0, Predicates.compareAngle(k, p(MAX, 0), p(1, 0), east));
        assertEquals(-1, Predicates.compareAngle(p(MIN, MIN), p(MAX, MAX), p(MAX, MAX - 1), p(MAX - 7, MAX - 7)));
        assertThrows(IllegalArgumentException.class, () -> Predicates.compareAngle(k, k, east, east));
    }

    @Test
    void shouldTestOpenSegmentsExactly() {
        assertTrue(Predicates.strictlyBetween(p(MIN, MIN), p(MAX, MAX), p(-1, -1)));
        assertFalse(Predicates.strictlyBetween(p(MIN, MIN), p(MAX, MAX), p(MIN, MIN)));
        assertFalse(Predicates.strictlyBetween(p(0, 0), p(4, 4), p(5, 5)));
        assertFalse(Predicates.strictlyBetween(p(0, 0), p(4, 4), p(2, 3)));
        assertTrue(Predicates.strictlyBetween(p(0, 4), p(0, 0), p(0, 1)));
    }

    @Test
    void int128ShouldCarryAndCompareAcrossTheWordBoundary() {
        Int128 max = Int128.product(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(big(Long.MAX_VALUE).pow(2), toBig(max));
        Int128 sum = max.plus(max).plus(Int128.product(Long.MIN_VALUE, 3));
        assertEquals(big(Long.MAX_VALUE).pow(2).shiftLeft(1).add(big(Long.MIN_VALUE).multiply(big(3))), toBig(sum));
        assertEquals(-1, Int128.product(-1, 1).signum());
        assertEquals(1, new Int128(0, -1).signum(), "low word is unsigned");
        assertEquals(-1, Int128.product(-1, 1).compareTo(new Int128(0, 0)));
        assertEquals(1, new Int128(0, -1).compareTo(new Int128(0, 1)));
        assertEquals(1, Int128.compareProducts(Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE - 1, Long.MAX_VALUE - 1),
                "products differing by 2^63 − 1 in the low bits");
        assertEquals(1, Int128.compareProducts(-1, Long.MIN_VALUE, Long.MAX_VALUE, 1), "2^63 > 2^63 − 1");
        assertEquals(0, Int128.compareProducts(-4, -6, 3, 8));
    }

    private static BigInteger toBig(Int128 v) {
        return big(v.hi()).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(v.lo())));
    }
}
