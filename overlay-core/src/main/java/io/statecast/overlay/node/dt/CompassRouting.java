package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Routing on the DT overlay: compass routing toward a node (the trees of the overlay) and greedy
 * routing toward an arbitrary point.
 *
 * <h2>Compass routing</h2>
 * The parent of k toward root s is s itself if s is a neighbour, else the neighbour whose ray from
 * k makes the smallest angle with the ray k→s ({@link Predicates#compareAngle}, exact). Ties go to
 * the neighbour closer to s, then to the lexicographically smaller one. On a Delaunay
 * triangulation compass routing always reaches s (Kranakis, Singh, Urrutia 1999), so the parents
 * toward s form a spanning tree rooted at s; in transient states loops are possible and the
 * forwarding engine's hop limit stays necessary.
 *
 * <h2>Greedy routing</h2>
 * Toward a point that need not be a node, the next hop is the neighbour closest to the point
 * (ties: lexicographically smaller) provided it is strictly closer than k; otherwise k is a node
 * nearest to the point and routing stops there. On a Delaunay triangulation this always ends at a
 * nearest node, because a node whose closed Voronoi cell misses the point has a Delaunay
 * neighbour strictly closer to it.
 *
 * <p>All methods are pure; arguments must not be {@code null}; neighbour sets must not contain k.
 */
public final class CompassRouting {

    private CompassRouting() {
    }

    /**
     * k's parent in the compass-routing tree rooted at {@code root}; empty if k is the root or has
     * no neighbours.
     */
    public static Optional<DtAddress> parent(DtAddress k, Collection<DtAddress> neighbours, DtAddress root) {
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(root, "root");
        if (k.equals(root)) {
            return Optional.empty();
        }
        DtAddress best = null;
        for (DtAddress m : neighbours) {
            requireNotSelf(k, m);
            if (m.equals(root)) {
                return Optional.of(root);
            }
            if (best == null || better(k, m, best, root)) {
                best = m;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Whether k is j's parent toward root, decided by k alone from what j reported in its Hello:
     * j's neighbours immediately clockwise and counter-clockwise of k around j
     * ({@link AngularOrder#cw}, {@link AngularOrder#ccw}). On a converged triangulation this equals
     * {@code parent(j, N(j), root).equals(k)}: the neighbour of j nearest in angle to the root lies
     * angularly next to the root's direction, so if it is not k, it beats k, or one of the two
     * reported neighbours does.
     *
     * @param cwAroundJ  j's neighbour clockwise of k, empty on a hull side
     * @param ccwAroundJ j's neighbour counter-clockwise of k, empty on a hull side
     */
    public static boolean isParentOf(DtAddress k, DtAddress j, Optional<DtAddress> cwAroundJ,
                                     Optional<DtAddress> ccwAroundJ, DtAddress root) {
        requireNotSelf(j, k);
        if (j.equals(root)) {
            return false;
        }
        List<DtAddress> known = new ArrayList<>(3);
        known.add(k);
        cwAroundJ.filter(p -> !p.equals(j)).ifPresent(known::add);
        ccwAroundJ.filter(p -> !p.equals(j)).ifPresent(known::add);
        return parent(j, known, root).map(k::equals).orElse(false);
    }

    /**
     * The next hop from k toward a point: the neighbour closest to it if strictly closer than k,
     * empty if k is already a node nearest to the point.
     */
    public static Optional<DtAddress> nextHopGreedy(DtAddress k, Collection<DtAddress> neighbours,
                                                    DtAddress point) {
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(point, "point");
        DtAddress best = null;
        for (DtAddress m : neighbours) {
            requireNotSelf(k, m);
            if (best == null) {
                best = m;
                continue;
            }
            int byDistance = Predicates.compareDistance(m, best, point);
            if (byDistance < 0 || (byDistance == 0 && Predicates.compareLexicographic(m, best) < 0)) {
                best = m;
            }
        }
        if (best == null || Predicates.compareDistance(best, k, point) >= 0) {
            return Optional.empty();
        }
        return Optional.of(best);
    }

    /** Whether m is a better compass choice than best from k toward root. */
    private static boolean better(DtAddress k, DtAddress m, DtAddress best, DtAddress root) {
        int byAngle = Predicates.compareAngle(k, m, best, root);
        if (byAngle != 0) {
            return byAngle < 0;
        }
        int byDistance = Predicates.compareDistance(m, best, root);
        if (byDistance != 0) {
            return byDistance < 0;
        }
        return Predicates.compareLexicographic(m, best) < 0;
    }

    private static void requireNotSelf(DtAddress k, DtAddress m) {
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(m, "neighbour");
        if (m.equals(k)) {
            throw new IllegalArgumentException("neighbour set of " + k + " contains the node itself");
        }
    }
}
