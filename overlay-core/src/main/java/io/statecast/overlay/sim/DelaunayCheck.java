package io.statecast.overlay.sim;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.node.dt.Predicates;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a graph on points is their Delaunay triangulation under the overlay's
 * cocircularity rule — without the protocol's local neighbour test, so that a simulation can be
 * judged by something that does not share the code under test. Only the exact predicates
 * ({@link Predicates#orientation}, {@link Predicates#insideCircle}) are shared: they define the
 * triangulation.
 *
 * <h2>Argument</h2>
 * Under the symbolic perturbation no point lies exactly on the circle through three
 * non-collinear others, so the triangles whose circumcircle contains no other point are exactly
 * the triangles of the (unique, perturbed) Delaunay triangulation, which tile the convex hull. The
 * check therefore takes every 3-cycle of the graph, keeps those with an empty circumcircle (each a
 * Delaunay triangle, found by scanning all points), and requires
 * <ol>
 *   <li>that their areas add up to the hull's area — then they are <em>all</em> the Delaunay
 *       triangles, since each has positive area and together they cannot cover more; and</li>
 *   <li>that every edge of the graph is a side of one of them — then the graph has no other
 *       edge.</li>
 * </ol>
 * Points all on one line have no triangles; their triangulation is the path in lexicographic
 * order. Cost: O(T·N) circle tests for T three-cycles, about 2N² — fine for the sizes a
 * simulation runs.
 */
public final class DelaunayCheck {

    private DelaunayCheck() {
    }

    /**
     * The verdict.
     *
     * @param matches      whether the graph is the Delaunay triangulation of the points
     * @param problem      the first difference found, or {@code null} when it matches
     * @param edges        edges of the graph
     * @param hullBoundary points on the hull boundary (corners and points inside hull edges)
     */
    public record Result(boolean matches, String problem, int edges, int hullBoundary) {
    }

    /**
     * Checks {@code graph} (each point's neighbours) against the Delaunay triangulation of
     * {@code points}.
     */
    public static Result check(Collection<DtAddress> points, Map<DtAddress, Set<DtAddress>> graph) {
        List<DtAddress> pts = new ArrayList<>(new LinkedHashSet<>(points));
        Set<DtAddress> ptSet = new HashSet<>(pts);
        if (pts.size() != points.size()) {
            return new Result(false, "duplicate points", 0, 0);
        }
        int degreeSum = 0;
        for (DtAddress p : pts) {
            Set<DtAddress> ns = graph.get(p);
            if (ns == null) {
                return new Result(false, "no neighbour set for " + p, 0, 0);
            }
            for (DtAddress q : ns) {
                if (q.equals(p) || !ptSet.contains(q)) {
                    return new Result(false, p + " has neighbour " + q + " that is not another point", 0, 0);
                }
                Set<DtAddress> back = graph.get(q);
                if (back == null || !back.contains(p)) {
                    return new Result(false, "asymmetric: " + p + " -> " + q + " but not back", 0, 0);
                }
            }
            degreeSum += ns.size();
        }
        if (graph.size() != pts.size()) {
            return new Result(false, "neighbour sets for " + graph.size() + " nodes, " + pts.size() + " points", 0, 0);
        }
        int edges = degreeSum / 2;
        List<DtAddress> hull = strictHull(pts);
        int h = hullBoundaryCount(pts);
        if (hull.size() < 3) {
            return checkPath(pts, graph, edges, h);
        }
        BigInteger area = BigInteger.ZERO;
        Set<Edge> covered = new HashSet<>();
        int triangles = 0;
        for (DtAddress a : pts) {
            for (DtAddress b : graph.get(a)) {
                if (Predicates.compareLexicographic(b, a) <= 0) {
                    continue;
                }
                for (DtAddress c : graph.get(b)) {
                    if (Predicates.compareLexicographic(c, b) <= 0 || !graph.get(a).contains(c)) {
                        continue;
                    }
                    if (Predicates.orientation(a, b, c) == 0 || !emptyCircle(pts, a, b, c)) {
                        continue;
                    }
                    triangles++;
                    area = area.add(doubleArea(a, b, c).abs());
                    covered.add(key(a, b));
                    covered.add(key(b, c));
                    covered.add(key(a, c));
                }
            }
        }
        BigInteger hullArea = hullDoubleArea(pts);
        if (!area.equals(hullArea)) {
            return new Result(false, "the graph's " + triangles + " empty-circle triangles cover twice-area " + area
                    + " of the hull's " + hullArea + ": Delaunay triangles are missing (an edge is missing)", edges, h);
        }
        for (DtAddress a : pts) {
            for (DtAddress b : graph.get(a)) {
                if (!covered.contains(key(a, b))) {
                    return new Result(false, "edge " + a + "-" + b + " is in no Delaunay triangle", edges, h);
                }
            }
        }
        if (edges != 3 * pts.size() - 3 - h) {
            // implied by the two conditions above; kept as a guard on this check itself
            return new Result(false, "E=" + edges + " but 3N-3-h=" + (3 * pts.size() - 3 - h), edges, h);
        }
        return new Result(true, null, edges, h);
    }

    private static Result checkPath(List<DtAddress> pts, Map<DtAddress, Set<DtAddress>> graph, int edges, int h) {
        List<DtAddress> sorted = new ArrayList<>(pts);
        sorted.sort(Predicates.LEXICOGRAPHIC);
        for (int i = 0; i + 1 < sorted.size(); i++) {
            if (!graph.get(sorted.get(i)).contains(sorted.get(i + 1))) {
                return new Result(false, "collinear points: path edge " + sorted.get(i) + "-" + sorted.get(i + 1) + " missing", edges, h);
            }
        }
        if (edges != Math.max(0, pts.size() - 1)) {
            return new Result(false, "collinear points: " + edges + " edges, a path has " + Math.max(0, pts.size() - 1), edges, h);
        }
        return new Result(true, null, edges, h);
    }

    /** Whether no point of {@code pts} but the corners lies inside the circle through {@code a}, {@code b}, {@code c}. */
    public static boolean emptyCircle(Collection<DtAddress> pts, DtAddress a, DtAddress b, DtAddress c) {
        for (DtAddress p : pts) {
            if (p != a && p != b && p != c && Predicates.insideCircle(a, b, c, p)) {
                return false;
            }
        }
        return true;
    }

    /** An undirected edge, endpoints in lexicographic order. */
    private record Edge(DtAddress a, DtAddress b) {
    }

    private static Edge key(DtAddress p, DtAddress q) {
        return Predicates.compareLexicographic(p, q) < 0 ? new Edge(p, q) : new Edge(q, p);
    }

    /** Twice the signed area of the triangle {@code a b c}: positive when counter-clockwise. */
    public static BigInteger doubleArea(DtAddress a, DtAddress b, DtAddress c) {
        BigInteger abx = BigInteger.valueOf((long) b.x() - a.x());
        BigInteger aby = BigInteger.valueOf((long) b.y() - a.y());
        BigInteger acx = BigInteger.valueOf((long) c.x() - a.x());
        BigInteger acy = BigInteger.valueOf((long) c.y() - a.y());
        return abx.multiply(acy).subtract(aby.multiply(acx));
    }

    /** Corners of the convex hull (no points inside hull edges), counter-clockwise; all points if fewer than 3 corners. */
    public static List<DtAddress> strictHull(Collection<DtAddress> points) {
        List<DtAddress> sorted = new ArrayList<>(new LinkedHashSet<>(points));
        sorted.sort(Predicates.LEXICOGRAPHIC);
        if (sorted.size() < 3) {
            return sorted;
        }
        List<DtAddress> hull = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            int start = hull.size();
            for (DtAddress p : sorted) {
                while (hull.size() >= start + 2
                        && Predicates.orientation(hull.get(hull.size() - 2), hull.get(hull.size() - 1), p) <= 0) {
                    hull.remove(hull.size() - 1);
                }
                hull.add(p);
            }
            hull.remove(hull.size() - 1);
            Collections.reverse(sorted);
        }
        return hull.size() < 3 ? List.of() : hull;
    }

    /**
     * The number of points on the hull boundary, corners and points inside hull edges alike (all
     * points when they lie on one line). A triangulation of the points has exactly these boundary
     * edges, so by Euler's formula it has E = 3N − 3 − h edges and T = 2N − 2 − h triangles.
     */
    public static int hullBoundaryCount(Collection<DtAddress> points) {
        List<DtAddress> pts = new ArrayList<>(new LinkedHashSet<>(points));
        List<DtAddress> hull = strictHull(pts);
        if (hull.size() < 3) {
            return pts.size();
        }
        int count = 0;
        for (DtAddress p : pts) {
            for (int i = 0; i < hull.size(); i++) {
                DtAddress a = hull.get(i);
                DtAddress b = hull.get((i + 1) % hull.size());
                if (p.equals(a) || Predicates.strictlyBetween(a, b, p)) {
                    count++;
                    break;
                }
            }
        }
        return count;
    }

    /** Twice the area of the convex hull of {@code points} (0 when they lie on one line). */
    public static BigInteger hullDoubleArea(Collection<DtAddress> points) {
        List<DtAddress> hull = strictHull(points);
        BigInteger sum = BigInteger.ZERO;
        for (int i = 1; i + 1 < hull.size(); i++) {
            sum = sum.add(doubleArea(hull.get(0), hull.get(i), hull.get(i + 1)));
        }
        return sum;
    }
}
