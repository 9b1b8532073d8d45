package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.sim.DelaunayCheck;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.triangulate.DelaunayTriangulationBuilder;

/**
 * Global Delaunay triangulations computed without the local neighbour test, to check it against.
 *
 * <ul>
 *   <li>{@link #bruteForce}: the global empty-circle definition applied to triangles: a
 *       non-degenerate triangle belongs to the triangulation iff no other point is strictly inside
 *       its circumcircle under the perturbed rule. O(N⁴); for N ≤ ~100 and any degenerate set.</li>
 *   <li>{@link #jts}: JTS's incremental Delaunay triangulator, for sets in general position, where
 *       the triangulation is unique and no cocircularity rule is involved.</li>
 * </ul>
 * Plus planarity, which makes "a valid triangulation" concrete with the hull boundary count and
 * area of {@link DelaunayCheck}.
 */
final class DelaunayOracle {

    private DelaunayOracle() {
    }

    /** An undirected edge, endpoints in lexicographic order. */
    record Edge(DtAddress a, DtAddress b) {
        static Edge of(DtAddress p, DtAddress q) {
            return Predicates.compareLexicographic(p, q) < 0 ? new Edge(p, q) : new Edge(q, p);
        }
    }

    /** A triangle, corners in counter-clockwise order. */
    record Triangle(DtAddress a, DtAddress b, DtAddress c) {
        static Triangle ccw(DtAddress a, DtAddress b, DtAddress c) {
            return Predicates.orientation(a, b, c) > 0 ? new Triangle(a, b, c) : new Triangle(a, c, b);
        }

        List<Edge> edges() {
            return List.of(Edge.of(a, b), Edge.of(b, c), Edge.of(c, a));
        }

        BigInteger doubleArea() {
            return DelaunayCheck.doubleArea(a, b, c);
        }
    }

    /** A triangulation: its points, edges and (for non-collinear sets) triangles. */
    record Triangulation(List<DtAddress> points, Set<Edge> edges, List<Triangle> triangles) {

        /** Each point's neighbours (every point has an entry, possibly empty). */
        Map<DtAddress, Set<DtAddress>> neighbours() {
            Map<DtAddress, Set<DtAddress>> map = new HashMap<>();
            for (DtAddress p : points) {
                map.put(p, new HashSet<>());
            }
            for (Edge e : edges) {
                map.get(e.a()).add(e.b());
                map.get(e.b()).add(e.a());
            }
            return map;
        }
    }

    /** The triangulation by the global empty-circle condition on triangles. */
    static Triangulation bruteForce(Collection<DtAddress> input) {
        List<DtAddress> points = new ArrayList<>(new LinkedHashSet<>(input));
        int n = points.size();
        List<Triangle> triangles = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                for (int l = j + 1; l < n; l++) {
                    DtAddress a = points.get(i);
                    DtAddress b = points.get(j);
                    DtAddress c = points.get(l);
                    if (Predicates.orientation(a, b, c) != 0 && DelaunayCheck.emptyCircle(points, a, b, c)) {
                        triangles.add(Triangle.ccw(a, b, c));
                    }
                }
            }
        }
        Set<Edge> edges = new HashSet<>();
        if (triangles.isEmpty()) {
            // All collinear (or N ≤ 2): lexicographic order is the order along the line.
            List<DtAddress> sorted = new ArrayList<>(points);
            sorted.sort(Predicates.LEXICOGRAPHIC);
            for (int i = 0; i + 1 < sorted.size(); i++) {
                edges.add(Edge.of(sorted.get(i), sorted.get(i + 1)));
            }
        } else {
            for (Triangle t : triangles) {
                edges.addAll(t.edges());
            }
        }
        return new Triangulation(points, edges, triangles);
    }

    /** JTS's Delaunay triangulation (points must be in general position to be comparable). */
    static Triangulation jts(Collection<DtAddress> input) {
        List<DtAddress> points = new ArrayList<>(new LinkedHashSet<>(input));
        Map<Coordinate, DtAddress> byCoordinate = new HashMap<>();
        List<Coordinate> sites = new ArrayList<>();
        for (DtAddress p : points) {
            Coordinate c = new Coordinate(p.x(), p.y());
            byCoordinate.put(c, p);
            sites.add(c);
        }
        DelaunayTriangulationBuilder builder = new DelaunayTriangulationBuilder();
        builder.setSites(sites);
        GeometryFactory factory = new GeometryFactory();
        Set<Edge> edges = new HashSet<>();
        Geometry lines = builder.getEdges(factory);
        for (int i = 0; i < lines.getNumGeometries(); i++) {
            Coordinate[] cs = lines.getGeometryN(i).getCoordinates();
            edges.add(Edge.of(lookup(byCoordinate, cs[0]), lookup(byCoordinate, cs[1])));
        }
        List<Triangle> triangles = new ArrayList<>();
        Geometry polygons = builder.getTriangles(factory);
        for (int i = 0; i < polygons.getNumGeometries(); i++) {
            Coordinate[] cs = polygons.getGeometryN(i).getCoordinates();
            triangles.add(Triangle.ccw(lookup(byCoordinate, cs[0]), lookup(byCoordinate, cs[1]),
                    lookup(byCoordinate, cs[2])));
        }
        return new Triangulation(points, edges, triangles);
    }

    private static DtAddress lookup(Map<Coordinate, DtAddress> byCoordinate, Coordinate c) {
        DtAddress p = byCoordinate.get(new Coordinate(c.x, c.y));
        if (p == null) {
            throw new IllegalStateException("JTS returned a point that is not a site: " + c);
        }
        return p;
    }

    /**
     * Whether the triangulation is the unique Delaunay triangulation of its points: every interior
     * edge's two triangles are strictly locally Delaunay under the unperturbed predicate. Then
     * no cocircularity rule can change the result, so JTS's answer is comparable to ours.
     */
    static boolean uniquelyDelaunay(Triangulation t) {
        Map<Edge, List<DtAddress>> opposite = new HashMap<>();
        for (Triangle tri : t.triangles()) {
            opposite.computeIfAbsent(Edge.of(tri.a(), tri.b()), e -> new ArrayList<>()).add(tri.c());
            opposite.computeIfAbsent(Edge.of(tri.b(), tri.c()), e -> new ArrayList<>()).add(tri.a());
            opposite.computeIfAbsent(Edge.of(tri.c(), tri.a()), e -> new ArrayList<>()).add(tri.b());
        }
        for (Map.Entry<Edge, List<DtAddress>> e : opposite.entrySet()) {
            List<DtAddress> corners = e.getValue();
            if (corners.size() == 2 && Predicates.inCircleExact(e.getKey().a(), e.getKey().b(),
                    corners.get(0), corners.get(1)) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A pair of edges that meet anywhere but at a shared endpoint (crossing, touching, or
     * overlapping), or a point lying inside an edge; {@code null} if the drawing is planar.
     */
    static String planarityViolation(Collection<DtAddress> points, Collection<Edge> edges) {
        List<Edge> list = new ArrayList<>(edges);
        for (int i = 0; i < list.size(); i++) {
            for (int j = i + 1; j < list.size(); j++) {
                if (meetImproperly(list.get(i), list.get(j))) {
                    return list.get(i) + " meets " + list.get(j);
                }
            }
        }
        for (Edge e : list) {
            for (DtAddress p : points) {
                if (Predicates.strictlyBetween(e.a(), e.b(), p)) {
                    return p + " lies inside " + e;
                }
            }
        }
        return null;
    }

    private static boolean meetImproperly(Edge e, Edge f) {
        DtAddress a = e.a();
        DtAddress b = e.b();
        DtAddress c = f.a();
        DtAddress d = f.b();
        if (a.equals(c) || a.equals(d) || b.equals(c) || b.equals(d)) {
            DtAddress shared = a.equals(c) || a.equals(d) ? a : b;
            DtAddress q = shared.equals(a) ? b : a;
            DtAddress r = shared.equals(c) ? d : c;
            return Predicates.orientation(shared, q, r) == 0 && !Predicates.strictlyBetween(q, r, shared);
        }
        int o1 = Predicates.orientation(a, b, c);
        int o2 = Predicates.orientation(a, b, d);
        int o3 = Predicates.orientation(c, d, a);
        int o4 = Predicates.orientation(c, d, b);
        if (o1 * o2 < 0 && o3 * o4 < 0) {
            return true;
        }
        return Predicates.strictlyBetween(a, b, c) || Predicates.strictlyBetween(a, b, d)
                || Predicates.strictlyBetween(c, d, a) || Predicates.strictlyBetween(c, d, b);
    }

    /** n distinct uniform points with coordinates in [lo, hi]. */
    static List<DtAddress> randomPoints(Random random, int n, long lo, long hi) {
        if ((hi - lo + 1) * (hi - lo + 1) < 2L * n && hi - lo < 1 << 20) {
            throw new IllegalArgumentException("[" + lo + ", " + hi + "]² is too small for " + n + " random points");
        }
        Set<DtAddress> set = new LinkedHashSet<>();
        while (set.size() < n) {
            set.add(new DtAddress((int) (lo + floorMod(random.nextLong(), hi - lo + 1)),
                    (int) (lo + floorMod(random.nextLong(), hi - lo + 1))));
        }
        return new ArrayList<>(set);
    }

    private static long floorMod(long value, long range) {
        return range <= 0 ? value : Math.floorMod(value, range);
    }

    /** Number of edges incident to each point, keyed in insertion order (for messages). */
    static Map<DtAddress, Integer> degrees(Triangulation t) {
        Map<DtAddress, Integer> map = new TreeMap<>(Predicates.LEXICOGRAPHIC);
        t.neighbours().forEach((p, ns) -> map.put(p, ns.size()));
        return map;
    }
}
