package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Exact geometric predicates on {@link DtAddress} points, correct over the whole {@code int}
 * range, and the one cocircularity rule of the DT overlay.
 *
 * <h2>Exactness</h2>
 * Coordinate differences need 33 bits. {@link #orientation} multiplies two of them (66 bits) and
 * is always evaluated in 128-bit arithmetic. The in-circle determinant needs about 134 bits for
 * differences of 2<sup>32</sup>; it and {@link #compareAngle} are evaluated in 128-bit arithmetic
 * when every coordinate difference involved is at most {@value #FAST_PATH_MAX_DIFFERENCE}
 * (2<sup>30</sup>) in absolute value, and in {@link BigInteger} otherwise. An overlay whose frame
 * is at most 2<sup>30</sup> wide on each axis therefore never allocates a big integer.
 * No floating point is used anywhere.
 *
 * <h2>The cocircularity rule (symbolic perturbation)</h2>
 * Four points on one circle make the Delaunay triangulation ambiguous. Every node and every test
 * oracle resolves this the same way, by lifting each point p to
 * {@code (x, y, x² + y² + ε^(1 + rank(p)))} for an infinitesimal ε &gt; 0, where rank orders points
 * {@linkplain #LEXICOGRAPHIC lexicographically} (x, then y). The lexicographically smallest point is
 * raised most, so it ends up outside the circle through the others: four cocircular points are
 * split by the diagonal that avoids the smallest of them (a unit lattice square with lower-left
 * corner (x, y) gets the diagonal (x+1, y)–(x, y+1)). Because the in-circle determinant is
 * linear in the lifted column, the perturbed determinant is {@code D + Σ ε^(1+rank(p)) · C(p)},
 * where C(p) is the cofactor of p's lifted entry in the 4×4 matrix with rows (x, y, x²+y², 1):
 * <pre>
 *   C(a) = +orient(b, c, d)    C(b) = −orient(a, c, d)
 *   C(c) = +orient(a, b, d)    C(d) = −orient(a, b, c)
 * </pre>
 * So if the exact determinant D is 0, its sign is that of C(p) for the lexicographically smallest
 * of the four points whose cofactor is not zero. The perturbed determinant is 0 only if all four
 * points are collinear (or two coincide). The result is a <em>regular triangulation</em> with
 * infinitesimal weights: a valid triangulation of every duplicate-free point set, refining the
 * Delaunay subdivision, and the same on every node because it depends on coordinates only.
 *
 * <p>All methods are pure and thread-safe; arguments must not be {@code null}.
 */
public final class Predicates {

    /**
     * Largest absolute coordinate difference for which the in-circle and angle predicates stay in
     * 128-bit arithmetic: with |difference| ≤ 2<sup>30</sup>, a lifted length and a 2×2 cross term
     * are each ≤ 2<sup>61</sup> and fit a {@code long}; the determinant is ≤ 3·2<sup>122</sup>.
     */
    public static final long FAST_PATH_MAX_DIFFERENCE = 1L << 30;

    /**
     * Lexicographic order: x, then y. It ranks points for the symbolic perturbation, breaks
     * routing ties, and elects the leader (the greatest point).
     */
    public static final Comparator<DtAddress> LEXICOGRAPHIC = Predicates::compareLexicographic;

    private Predicates() {
    }

    /** Compares two points by x, then y. */
    public static int compareLexicographic(DtAddress a, DtAddress b) {
        int byX = Integer.compare(a.x(), b.x());
        return byX != 0 ? byX : Integer.compare(a.y(), b.y());
    }

    /**
     * The orientation of the triangle (a, b, c): +1 if c lies strictly left of the directed line
     * a→b (counter-clockwise turn), −1 if strictly right, 0 if the three points are collinear
     * (including coincident points). Exact for all {@code int} coordinates.
     */
    public static int orientation(DtAddress a, DtAddress b, DtAddress c) {
        long abx = (long) b.x() - a.x();
        long aby = (long) b.y() - a.y();
        long acx = (long) c.x() - a.x();
        long acy = (long) c.y() - a.y();
        return Int128.compareProducts(abx, acy, aby, acx);
    }

    /**
     * The sign of the exact, <em>unperturbed</em> in-circle determinant: for a counter-clockwise
     * triangle (a, b, c) it is +1 if d lies strictly inside its circumcircle, −1 if strictly
     * outside, 0 if on it; a clockwise triangle flips the sign. Exposed for tests and diagnostics;
     * decisions use {@link #inCircle}.
     */
    public static int inCircleExact(DtAddress a, DtAddress b, DtAddress c, DtAddress d) {
        long adx = (long) a.x() - d.x();
        long ady = (long) a.y() - d.y();
        long bdx = (long) b.x() - d.x();
        long bdy = (long) b.y() - d.y();
        long cdx = (long) c.x() - d.x();
        long cdy = (long) c.y() - d.y();
        if (small(adx) && small(ady) && small(bdx) && small(bdy) && small(cdx) && small(cdy)) {
            long aLift = adx * adx + ady * ady;
            long bLift = bdx * bdx + bdy * bdy;
            long cLift = cdx * cdx + cdy * cdy;
            long bcCross = bdx * cdy - cdx * bdy;
            long caCross = cdx * ady - adx * cdy;
            long abCross = adx * bdy - bdx * ady;
            return Int128.product(aLift, bcCross)
                    .plus(Int128.product(bLift, caCross))
                    .plus(Int128.product(cLift, abCross))
                    .signum();
        }
        return inCircleBig(adx, ady, bdx, bdy, cdx, cdy);
    }

    /**
     * The sign of the in-circle determinant under the symbolic perturbation described in the
     * class comment. Same sign convention as {@link #inCircleExact}; 0 only if all four points
     * are collinear or two of them coincide (there is nothing to perturb then).
     */
    public static int inCircle(DtAddress a, DtAddress b, DtAddress c, DtAddress d) {
        int exact = inCircleExact(a, b, c, d);
        if (exact != 0) {
            return exact;
        }
        if (a.equals(b) || a.equals(c) || a.equals(d) || b.equals(c) || b.equals(d) || c.equals(d)) {
            return 0;
        }
        DtAddress[] byPriority = {a, b, c, d};
        Arrays.sort(byPriority, LEXICOGRAPHIC);
        for (DtAddress p : byPriority) {
            int cofactor;
            if (p.equals(a)) {
                cofactor = orientation(b, c, d);
            } else if (p.equals(b)) {
                cofactor = -orientation(a, c, d);
            } else if (p.equals(c)) {
                cofactor = orientation(a, b, d);
            } else {
                cofactor = -orientation(a, b, c);
            }
            if (cofactor != 0) {
                return cofactor;
            }
        }
        return 0;
    }

    /**
     * Whether d lies strictly inside the circle through a, b and c under the cocircularity rule,
     * whatever the orientation of (a, b, c). {@code false} if a, b and c are collinear: a
     * degenerate triangle has no circumcircle.
     */
    public static boolean insideCircle(DtAddress a, DtAddress b, DtAddress c, DtAddress d) {
        int turn = orientation(a, b, c);
        return turn != 0 && turn * inCircle(a, b, c, d) > 0;
    }

    /**
     * Whether p lies strictly inside the segment a–b: collinear with it, between the endpoints,
     * and equal to neither. {@code false} when a equals b.
     */
    public static boolean strictlyBetween(DtAddress a, DtAddress b, DtAddress p) {
        if (p.equals(a) || p.equals(b) || orientation(a, b, p) != 0) {
            return false;
        }
        return Math.min(a.x(), b.x()) <= p.x() && p.x() <= Math.max(a.x(), b.x())
                && Math.min(a.y(), b.y()) <= p.y() && p.y() <= Math.max(a.y(), b.y());
    }

    /** The sign of |p − target|² − |q − target|²: which of p and q is closer to target. */
    public static int compareDistance(DtAddress p, DtAddress q, DtAddress target) {
        return squaredDistance(p, target).compareTo(squaredDistance(q, target));
    }

    /**
     * Compares the unsigned angles (in [0°, 180°]) that the rays apex→a and apex→b make with the
     * ray apex→toward: −1 if a's angle is smaller, +1 if larger, 0 if equal. Exact, no
     * trigonometry: each angle is represented by the vector (dot, |cross|) of its two rays.
     *
     * @throws IllegalArgumentException if a, b or toward equals apex (no direction)
     */
    public static int compareAngle(DtAddress apex, DtAddress a, DtAddress b, DtAddress toward) {
        if (a.equals(apex) || b.equals(apex) || toward.equals(apex)) {
            throw new IllegalArgumentException("compareAngle needs rays: a=" + a + ", b=" + b
                    + ", toward=" + toward + " must all differ from apex=" + apex);
        }
        long ux = (long) toward.x() - apex.x();
        long uy = (long) toward.y() - apex.y();
        long ax = (long) a.x() - apex.x();
        long ay = (long) a.y() - apex.y();
        long bx = (long) b.x() - apex.x();
        long by = (long) b.y() - apex.y();
        int cross;
        int dot;
        boolean aAtZero;
        if (small(ux) && small(uy) && small(ax) && small(ay) && small(bx) && small(by)) {
            long aDot = ux * ax + uy * ay;
            long aCross = Math.abs(ux * ay - uy * ax);
            long bDot = ux * bx + uy * by;
            long bCross = Math.abs(ux * by - uy * bx);
            cross = Int128.compareProducts(aDot, bCross, aCross, bDot);
            dot = Int128.product(aDot, bDot).plus(Int128.product(aCross, bCross)).signum();
            aAtZero = aDot > 0;
        } else {
            BigInteger bux = BigInteger.valueOf(ux);
            BigInteger buy = BigInteger.valueOf(uy);
            BigInteger aDot = bux.multiply(BigInteger.valueOf(ax)).add(buy.multiply(BigInteger.valueOf(ay)));
            BigInteger aCross = bux.multiply(BigInteger.valueOf(ay))
                    .subtract(buy.multiply(BigInteger.valueOf(ax))).abs();
            BigInteger bDot = bux.multiply(BigInteger.valueOf(bx)).add(buy.multiply(BigInteger.valueOf(by)));
            BigInteger bCross = bux.multiply(BigInteger.valueOf(by))
                    .subtract(buy.multiply(BigInteger.valueOf(bx))).abs();
            cross = aDot.multiply(bCross).compareTo(aCross.multiply(bDot));
            dot = aDot.multiply(bDot).add(aCross.multiply(bCross)).signum();
            aAtZero = aDot.signum() > 0;
        }
        // Both (dot, |cross|) vectors lie in the closed upper half-plane, so their cross product
        // orders their angles, except when they point in opposite directions (0° against 180°).
        if (cross != 0) {
            return cross > 0 ? -1 : 1;
        }
        if (dot > 0) {
            return 0;
        }
        return aAtZero ? -1 : 1;
    }

    private static Int128 squaredDistance(DtAddress p, DtAddress target) {
        long dx = (long) p.x() - target.x();
        long dy = (long) p.y() - target.y();
        return Int128.product(dx, dx).plus(Int128.product(dy, dy));
    }

    private static boolean small(long difference) {
        return Math.abs(difference) <= FAST_PATH_MAX_DIFFERENCE;
    }

    private static int inCircleBig(long adx, long ady, long bdx, long bdy, long cdx, long cdy) {
        BigInteger ax = BigInteger.valueOf(adx);
        BigInteger ay = BigInteger.valueOf(ady);
        BigInteger bx = BigInteger.valueOf(bdx);
        BigInteger by = BigInteger.valueOf(bdy);
        BigInteger cx = BigInteger.valueOf(cdx);
        BigInteger cy = BigInteger.valueOf(cdy);
        BigInteger aLift = ax.multiply(ax).add(ay.multiply(ay));
        BigInteger bLift = bx.multiply(bx).add(by.multiply(by));
        BigInteger cLift = cx.multiply(cx).add(cy.multiply(cy));
        BigInteger bcCross = bx.multiply(cy).subtract(cx.multiply(by));
        BigInteger caCross = cx.multiply(ay).subtract(ax.multiply(cy));
        BigInteger abCross = ax.multiply(by).subtract(bx.multiply(ay));
        return aLift.multiply(bcCross)
                .add(bLift.multiply(caCross))
                .add(cLift.multiply(abCross))
                .signum();
    }
}
