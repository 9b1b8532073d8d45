package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Angular order of points around a node k, exact and without trigonometry: a direction is
 * classified by half-plane (angles [0°, 180°) first, then [180°, 360°), measured
 * counter-clockwise from the positive x axis), then ordered by the sign of a cross product.
 *
 * <h2>CW and CCW neighbours</h2>
 * {@link #ccw ccw(k, N, j)} is the neighbour met first when turning counter-clockwise from the
 * ray k→j by an angle in (0°, 180°]; {@link #cw cw(k, N, j)} likewise turning clockwise. When the
 * turn is less than 180° these are the third corners of the two triangles on edge k–j. Nothing
 * within 180° on a side means k–j is a hull edge and that side is absent ({@link Optional#empty()}).
 * The closed end at 180° is deliberate: on a collinear boundary, and on an all-collinear overlay
 * (a path), the neighbour straight across from j is reported on both sides, which lets j decide
 * locally whether k is its parent ({@link CompassRouting#isParentOf}). Points on the same ray as
 * j (only possible in transient states) are never its CW or CCW.
 *
 * <p>All methods are pure; arguments must not be {@code null}; no point may equal k.
 */
public final class AngularOrder {

    private AngularOrder() {
    }

    /**
     * A comparator ordering points counter-clockwise around k, starting at the positive x axis;
     * points on one ray come nearest first, so the order is total on distinct points.
     */
    public static Comparator<DtAddress> aroundCounterClockwise(DtAddress k) {
        Objects.requireNonNull(k, "k");
        return (p, q) -> {
            int byHalf = Integer.compare(half(k, p), half(k, q));
            if (byHalf != 0) {
                return byHalf;
            }
            int turn = Predicates.orientation(k, p, q);
            if (turn != 0) {
                return turn > 0 ? -1 : 1;
            }
            int byDistance = Predicates.compareDistance(p, q, k);
            return byDistance != 0 ? byDistance : Predicates.compareLexicographic(p, q);
        };
    }

    /** The points sorted counter-clockwise around k (see {@link #aroundCounterClockwise}). */
    public static List<DtAddress> counterClockwise(DtAddress k, Collection<DtAddress> points) {
        List<DtAddress> sorted = new ArrayList<>(points);
        for (DtAddress p : sorted) {
            requireNotApex(k, p);
        }
        sorted.sort(aroundCounterClockwise(k));
        return sorted;
    }

    /**
     * The neighbour of k immediately counter-clockwise of j, within a turn of (0°, 180°]; the
     * nearest one if several lie on that ray. Empty if no neighbour lies in that range. j itself
     * need not be a neighbour.
     */
    public static Optional<DtAddress> ccw(DtAddress k, Collection<DtAddress> neighbours, DtAddress j) {
        return adjacent(k, neighbours, j, 1);
    }

    /** Mirror image of {@link #ccw}: the neighbour of k immediately clockwise of j. */
    public static Optional<DtAddress> cw(DtAddress k, Collection<DtAddress> neighbours, DtAddress j) {
        return adjacent(k, neighbours, j, -1);
    }

    /** Whether a and b lie on the same ray from k (same direction, any distances). */
    public static boolean onSameRay(DtAddress k, DtAddress a, DtAddress b) {
        requireNotApex(k, a);
        requireNotApex(k, b);
        return Predicates.orientation(k, a, b) == 0 && !Predicates.strictlyBetween(a, b, k);
    }

    /**
     * Searches one side of ray k→j. {@code turn} is +1 for counter-clockwise, −1 for clockwise;
     * multiplying orientations by it mirrors the clockwise case onto the counter-clockwise one.
     */
    private static Optional<DtAddress> adjacent(DtAddress k, Collection<DtAddress> neighbours,
                                                DtAddress j, int turn) {
        requireNotApex(k, j);
        DtAddress best = null;
        for (DtAddress m : neighbours) {
            requireNotApex(k, m);
            if (m.equals(j) || !withinHalfTurn(k, j, m, turn)) {
                continue;
            }
            if (best == null || before(k, j, m, best, turn)) {
                best = m;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Whether m is reached from ray k→j by a turn in the given direction of (0°, 180°]. */
    private static boolean withinHalfTurn(DtAddress k, DtAddress j, DtAddress m, int turn) {
        int side = turn * Predicates.orientation(k, j, m);
        return side > 0 || (side == 0 && Predicates.strictlyBetween(j, m, k));
    }

    /** Whether m is met before best when turning from j; both are within the half turn. */
    private static boolean before(DtAddress k, DtAddress j, DtAddress m, DtAddress best, int turn) {
        boolean mOpposite = Predicates.orientation(k, j, m) == 0;
        boolean bestOpposite = Predicates.orientation(k, j, best) == 0;
        if (mOpposite != bestOpposite) {
            return bestOpposite;
        }
        int order = mOpposite ? 0 : turn * Predicates.orientation(k, m, best);
        if (order != 0) {
            return order > 0;
        }
        return Predicates.compareDistance(m, best, k) < 0;
    }

    /** 0 for directions in [0°, 180°), 1 for [180°, 360°). */
    private static int half(DtAddress k, DtAddress p) {
        requireNotApex(k, p);
        int dy = Integer.compare(p.y(), k.y());
        return dy > 0 || (dy == 0 && p.x() > k.x()) ? 0 : 1;
    }

    private static void requireNotApex(DtAddress k, DtAddress p) {
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(p, "point");
        if (p.equals(k)) {
            throw new IllegalArgumentException("point " + p + " equals the apex node " + k);
        }
    }
}
