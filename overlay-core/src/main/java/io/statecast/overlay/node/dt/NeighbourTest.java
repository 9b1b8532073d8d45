package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The exact local neighbour test of the DT overlay: is edge k–c in the Delaunay triangulation
 * (under the {@linkplain Predicates cocircularity rule}) of {@code {k} ∪ S}, where
 * {@code S = N ∪ {c}} and N is k's current neighbour set?
 *
 * <ol>
 *   <li>If some s ∈ S lies strictly inside segment k–c, c is <em>blocked</em> and fails.</li>
 *   <li>Split S into L (strictly left of k→c) and R (strictly right); points on the line k–c
 *       outside the segment constrain nothing.</li>
 *   <li>c passes iff no r ∈ R lies strictly inside the circle through k, l, c for any l ∈ L. An
 *       empty side never blocks (a hull edge).</li>
 * </ol>
 *
 * <p>Step 3 is evaluated in O(|S|), not over all pairs: the circles through k and c form a pencil,
 * ordered by how far they bulge into R. Each left point pins a lower bound on that position and
 * each right point an upper bound, and the perturbed predicate orders them strictly. The pairwise
 * condition therefore holds iff it holds for the most constraining left point l* (no other left
 * point is inside circle(k, c, l*)) against the most constraining right point r*; both are found
 * by one scan each. The tests check this against the literal pairwise definition.
 *
 * <p>Input sets may hold anything during transients: entries equal to k are ignored, duplicates
 * count once. All methods are pure; arguments must not be {@code null}.
 */
public final class NeighbourTest {

    private NeighbourTest() {
    }

    /**
     * Whether candidate c is a Delaunay neighbour of k given k's neighbour set.
     *
     * @param k          the node deciding
     * @param neighbours k's current neighbours (c may or may not be among them)
     * @param candidate  the point tested; {@code false} if it equals k
     */
    public static boolean passes(DtAddress k, Collection<DtAddress> neighbours, DtAddress candidate) {
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(candidate, "candidate");
        if (candidate.equals(k)) {
            return false;
        }
        DtAddress bestLeft = null;
        DtAddress bestRight = null;
        for (DtAddress s : neighbours) {
            if (s.equals(k) || s.equals(candidate)) {
                continue;
            }
            int side = Predicates.orientation(k, candidate, s);
            if (side == 0) {
                if (Predicates.strictlyBetween(k, candidate, s)) {
                    return false;
                }
            } else if (side > 0) {
                if (bestLeft == null || Predicates.insideCircle(k, candidate, bestLeft, s)) {
                    bestLeft = s;
                }
            } else if (bestRight == null || Predicates.insideCircle(k, candidate, bestRight, s)) {
                bestRight = s;
            }
        }
        return bestLeft == null || bestRight == null
                || !Predicates.insideCircle(k, bestLeft, candidate, bestRight);
    }

    /**
     * The point of the set that blocks candidate c by lying strictly inside segment k–c, the one
     * nearest to k if several do; empty if none does.
     */
    public static Optional<DtAddress> blocker(DtAddress k, Collection<DtAddress> neighbours,
                                              DtAddress candidate) {
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(candidate, "candidate");
        DtAddress nearest = null;
        for (DtAddress s : neighbours) {
            if (Predicates.strictlyBetween(k, candidate, s)
                    && (nearest == null || Predicates.compareDistance(s, nearest, k) < 0)) {
                nearest = s;
            }
        }
        return Optional.ofNullable(nearest);
    }

    /**
     * The local Delaunay triangulation of k over a candidate set: every candidate c that
     * {@linkplain #passes passes} against all the other candidates, i.e. k's neighbours in the
     * triangulation of {@code {k} ∪ candidates}. A node calls this with its neighbours plus a new
     * point to learn which neighbours the newcomer evicts. O(n²) for n candidates.
     *
     * @return an unmodifiable set iterating counter-clockwise around k
     *         (as {@link AngularOrder#counterClockwise})
     */
    public static Set<DtAddress> localNeighbours(DtAddress k, Collection<DtAddress> candidates) {
        Objects.requireNonNull(k, "k");
        List<DtAddress> distinct = new ArrayList<>(new LinkedHashSet<>(candidates));
        distinct.remove(k);
        List<DtAddress> passing = new ArrayList<>();
        for (DtAddress c : distinct) {
            if (passes(k, distinct, c)) {
                passing.add(c);
            }
        }
        return Collections.unmodifiableSet(new LinkedHashSet<>(AngularOrder.counterClockwise(k, passing)));
    }
}
