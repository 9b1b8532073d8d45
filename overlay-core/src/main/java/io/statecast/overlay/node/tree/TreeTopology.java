package io.statecast.overlay.node.tree;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The published view of a {@link TreeNode}: one spanning tree over the overlay, oriented toward
 * the node with the largest id (the <em>global root</em>), plus for every node below this one the
 * child whose subtree contains it.
 *
 * <p>The tree rooted at any node {@code s} has the same edges, oriented toward {@code s}: the
 * parent toward {@code s} is the child whose subtree holds {@code s}, else this node's own parent;
 * the children toward {@code s} are all tree neighbours but that parent. So multicast from any
 * source crosses each tree edge once, and unicast follows the unique tree path.
 *
 * <p>Immutable; safe to read from any thread.
 */
public final class TreeTopology implements Topology {

    private final TreeAddress self;
    private final NodeState state;
    private final long version;
    private final long root;
    private final int hops;
    private final TreeAddress parent;
    private final Map<LogicalAddress, SubstrateAddress> neighbours;
    private final Map<Long, TreeAddress> routes;
    private final List<LogicalAddress> all;
    private final Map<LogicalAddress, List<LogicalAddress>> allBut;
    private final int links;

    /**
     * @param self       this node
     * @param state      its state
     * @param version    publication number
     * @param root       the global root's id
     * @param hops       distance to the global root
     * @param parent     parent toward the global root, or {@code null} at the root
     * @param neighbours tree neighbours (parent and children) and their substrate addresses, in order
     * @param routes     node id below this node → the child whose subtree holds it
     * @param links      number of links (peers exchanging beacons), for diagnostics
     */
    TreeTopology(TreeAddress self, NodeState state, long version, long root, int hops, TreeAddress parent,
                 Map<LogicalAddress, SubstrateAddress> neighbours, Map<Long, TreeAddress> routes, int links) {
        this.self = self;
        this.state = state;
        this.version = version;
        this.root = root;
        this.hops = hops;
        this.parent = parent;
        this.neighbours = Collections.unmodifiableMap(new LinkedHashMap<>(neighbours));
        this.routes = Map.copyOf(routes);
        this.all = List.copyOf(neighbours.keySet());
        Map<LogicalAddress, List<LogicalAddress>> but = new HashMap<>();
        for (LogicalAddress n : all) {
            List<LogicalAddress> l = new ArrayList<>(all);
            l.remove(n);
            but.put(n, List.copyOf(l));
        }
        this.allBut = but;
        this.links = links;
    }

    /** An empty view of a node that has not joined (or has left). */
    static TreeTopology stopped(TreeAddress self) {
        return new TreeTopology(self, NodeState.STOPPED, 0, self.id(), 0, null, Map.of(), Map.of(), 0);
    }

    /** The same view with another state and version. */
    TreeTopology withState(NodeState newState, long newVersion) {
        return new TreeTopology(self, newState, newVersion, root, hops, parent, neighbours, routes, links);
    }

    /** True if {@code o} shows the same tree (ignoring state, version and link count). */
    boolean sameTree(TreeTopology o) {
        return root == o.root && hops == o.hops && Objects.equals(parent, o.parent)
                && all.equals(o.all) && neighbours.equals(o.neighbours) && routes.equals(o.routes);
    }

    @Override
    public TreeAddress self() {
        return self;
    }

    @Override
    public NodeState state() {
        return state;
    }

    /** True if this node is the root of its tree (the largest id it can reach), while running. */
    @Override
    public boolean leader() {
        return state != NodeState.STOPPED && root == self.id();
    }

    @Override
    public Set<LogicalAddress> neighbours() {
        return neighbours.keySet();
    }

    @Override
    public SubstrateAddress substrateAddress(LogicalAddress neighbour) {
        return neighbours.get(neighbour);
    }

    @Override
    public LogicalAddress parent(LogicalAddress rootAddress) {
        if (!(rootAddress instanceof TreeAddress t) || t.id() == self.id()) {
            return null;
        }
        TreeAddress child = routes.get(t.id());
        return child != null ? child : parent;
    }

    @Override
    public List<LogicalAddress> children(LogicalAddress rootAddress) {
        if (!(rootAddress instanceof TreeAddress)) {
            return List.of();
        }
        LogicalAddress p = parent(rootAddress);
        return p == null ? all : allBut.getOrDefault(p, all);
    }

    @Override
    public long version() {
        return version;
    }

    /** The id of the global root (the largest id in this node's partition, once converged). */
    public long rootId() {
        return root;
    }

    /** Distance in tree edges to the global root. */
    public int hops() {
        return hops;
    }

    /** Parent toward the global root, or {@code null} at the root. */
    public TreeAddress treeParent() {
        return parent;
    }

    /** Ids of the nodes below this one (this node not included). */
    public Set<Long> descendants() {
        return routes.keySet();
    }

    /** Number of links: peers exchanging beacons with this node, tree neighbours or not. */
    public int links() {
        return links;
    }

    @Override
    public String toString() {
        return "TreeTopology[" + self + " " + state + " v" + version + " root=#" + root + " hops=" + hops
                + " parent=" + parent + " neighbours=" + all + " below=" + routes.size() + "]";
    }
}
