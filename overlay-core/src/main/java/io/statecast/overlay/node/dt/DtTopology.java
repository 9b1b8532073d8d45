package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The published view of a {@link DtNode}: its Delaunay neighbours, where they are reached, and
 * what each last reported about the triangles on their common edge, from which the trees follow.
 *
 * <ul>
 *   <li>{@link #parent parent(s)}: compass routing (CompassRouting.parent) over the neighbours.</li>
 *   <li>{@link #children children(s)}: the neighbours j that consider this node a neighbour and
 *       whose reported CW/CCW pair around this node makes this node j's compass parent toward s
 *       (CompassRouting.isParentOf) — decided here, without asking j. On a converged
 *       triangulation this is exactly the set of neighbours whose own parent toward s is this
 *       node.</li>
 *   <li>{@link #nextHop nextHop(d)}: d itself if a neighbour; otherwise null if no neighbour is
 *       strictly closer to d than this node (this node is a nearest node to the point d);
 *       otherwise the compass parent toward d if it is strictly closer to d, else the closest
 *       neighbour (greedy). Every hop strictly reduces the distance to d, so unicast never loops,
 *       even while views disagree; on a converged triangulation the compass parent toward a node
 *       is always closer, so toward a node nextHop equals parent.</li>
 * </ul>
 *
 * <p>Immutable; safe to read from any thread.
 */
public final class DtTopology implements Topology {

    /**
     * What a neighbour last reported about this node.
     *
     * @param substrate   where the neighbour is reached
     * @param cw          its neighbour clockwise of this node around it, or {@code null} (hull side)
     * @param ccw         its neighbour counter-clockwise of this node around it, or {@code null}
     * @param considersMe whether its last Hello was a HelloNeighbor
     */
    public record Report(SubstrateAddress substrate, DtAddress cw, DtAddress ccw, boolean considersMe) {
        /** Checks the substrate address. */
        public Report {
            Objects.requireNonNull(substrate, "substrate");
        }
    }

    private final DtAddress self;
    private final NodeState state;
    private final long version;
    private final DtAddress partitionLeader;
    private final List<DtAddress> order;
    private final Map<DtAddress, Report> reports;
    private final Set<LogicalAddress> neighbourSet;
    private final boolean leader;

    /**
     * @param self            this node
     * @param state           its state
     * @param version         publication number
     * @param partitionLeader the leader this node believes leads its partition, or {@code null}
     * @param reports         neighbours and their reports (any order)
     */
    DtTopology(DtAddress self, NodeState state, long version, DtAddress partitionLeader, Map<DtAddress, Report> reports) {
        this.self = self;
        this.state = state;
        this.version = version;
        this.partitionLeader = partitionLeader;
        this.order = List.copyOf(AngularOrder.counterClockwise(self, reports.keySet()));
        Map<DtAddress, Report> r = new LinkedHashMap<>();
        for (DtAddress a : order) {
            r.put(a, reports.get(a));
        }
        this.reports = Collections.unmodifiableMap(r);
        this.neighbourSet = Collections.unmodifiableSet(new LinkedHashSet<>(order));
        this.leader = state != NodeState.STOPPED && Leader.isLeader(self, order);
    }

    /** An empty view of a node that has not joined (or has left). */
    static DtTopology stopped(DtAddress self, long version) {
        return new DtTopology(self, NodeState.STOPPED, version, null, Map.of());
    }

    /** The same view with another state and version. */
    DtTopology with(NodeState newState, long newVersion) {
        return new DtTopology(self, newState, newVersion, partitionLeader, reports);
    }

    /** True if {@code o} shows the same neighbours, reports, state and leader knowledge (not version). */
    boolean sameView(DtTopology o) {
        return self.equals(o.self) && state == o.state && Objects.equals(partitionLeader, o.partitionLeader)
                && reports.equals(o.reports);
    }

    @Override
    public DtAddress self() {
        return self;
    }

    @Override
    public NodeState state() {
        return state;
    }

    /** True while running if no neighbour has a greater address (lexicographic x, then y). */
    @Override
    public boolean leader() {
        return leader;
    }

    @Override
    public Set<LogicalAddress> neighbours() {
        return neighbourSet;
    }

    /** The neighbours counter-clockwise around this node, starting at the positive x axis. */
    public List<DtAddress> neighbourList() {
        return order;
    }

    /** Each neighbour's last report, in {@link #neighbourList()} order. */
    public Map<DtAddress, Report> reports() {
        return reports;
    }

    /** The leader of this node's partition as last announced (or this node), or {@code null} if unknown. */
    public DtAddress partitionLeader() {
        return partitionLeader;
    }

    @Override
    public SubstrateAddress substrateAddress(LogicalAddress neighbour) {
        Report r = neighbour instanceof DtAddress d ? reports.get(d) : null;
        return r == null ? null : r.substrate();
    }

    @Override
    public DtAddress parent(LogicalAddress root) {
        if (!(root instanceof DtAddress r) || r.equals(self)) {
            return null;
        }
        return CompassRouting.parent(self, order, r).orElse(null);
    }

    @Override
    public List<LogicalAddress> children(LogicalAddress root) {
        if (!(root instanceof DtAddress r)) {
            return List.of();
        }
        List<LogicalAddress> out = new ArrayList<>();
        for (Map.Entry<DtAddress, Report> e : reports.entrySet()) {
            Report rep = e.getValue();
            if (rep.considersMe() && CompassRouting.isParentOf(self, e.getKey(), Optional.ofNullable(rep.cw()),
                    Optional.ofNullable(rep.ccw()), r)) {
                out.add(e.getKey());
            }
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public DtAddress nextHop(LogicalAddress destination) {
        if (!(destination instanceof DtAddress d) || d.equals(self)) {
            return null;
        }
        return towardPoint(self, order, d);
    }

    /**
     * The next hop from k toward point d over neighbours {@code ns} (see the class comment):
     * {@code null} if no neighbour is strictly closer to d than k.
     */
    static DtAddress towardPoint(DtAddress k, Collection<DtAddress> ns, DtAddress d) {
        if (ns.contains(d)) {
            return d;
        }
        Optional<DtAddress> greedy = CompassRouting.nextHopGreedy(k, ns, d);
        if (greedy.isEmpty()) {
            return null;
        }
        Optional<DtAddress> compass = CompassRouting.parent(k, ns, d);
        if (compass.isPresent() && Predicates.compareDistance(compass.get(), k, d) < 0) {
            return compass.get();
        }
        return greedy.get();
    }

    @Override
    public long version() {
        return version;
    }

    @Override
    public String toString() {
        return "DtTopology[" + self + " " + state + (leader ? " leader" : "") + " v" + version + " neighbours=" + order + "]";
    }
}
