package io.statecast.overlay.node;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link Topology} written down by hand rather than learnt by an overlay protocol: for tests,
 * benchmarks, warm-up and tools that run a node without a live overlay around it.
 *
 * <p>A new one is a STABLE node that is not the leader, with version 1, no neighbours and no
 * trees. Each {@code with…}-style method ({@link #neighbour}, {@link #tree}, {@link #otherTrees},
 * {@link #leader}, {@link #version}) returns a new instance and leaves this one as it was, so an
 * instance never changes and is safe to read from any thread:
 *
 * <pre>{@code
 * Topology t = new FixedTopology(self)
 *         .tree(source, parent, child1, child2)  // in the tree rooted at source
 *         .otherTrees(parent);                   // in every other tree: parent up, no children
 * }</pre>
 *
 * <p>Trees: {@link #parent parent(root)} and {@link #children children(root)} come from the tree
 * given for {@code root} by {@link #tree}, otherwise from {@link #otherTrees} (by default: no
 * parent, no children). {@code parent(self())} is always {@code null}, as {@link Topology} requires.
 */
public final class FixedTopology implements Topology {

    /** This node's place in one tree: its parent ({@code null}: none) and its children. */
    private record Place(LogicalAddress parent, List<LogicalAddress> children) {
        static final Place NONE = new Place(null, List.of());
    }

    private final LogicalAddress self;
    private final boolean leader;
    private final long version;
    /** Neighbour to substrate address; a {@code null} value: known by its logical address only. */
    private final Map<LogicalAddress, SubstrateAddress> neighbours;
    private final Set<LogicalAddress> neighbourSet;
    private final Map<LogicalAddress, Place> trees;
    private final Place otherTrees;

    /** A STABLE node {@code self} that is not the leader: version 1, no neighbours, no trees. */
    public FixedTopology(LogicalAddress self) {
        this(Objects.requireNonNull(self, "self"), false, 1, Map.of(), Map.of(), Place.NONE);
    }

    private FixedTopology(LogicalAddress self, boolean leader, long version,
            Map<LogicalAddress, SubstrateAddress> neighbours, Map<LogicalAddress, Place> trees, Place otherTrees) {
        this.self = self;
        this.leader = leader;
        this.version = version;
        this.neighbours = neighbours;
        this.neighbourSet = Collections.unmodifiableSet(neighbours.keySet());
        this.trees = trees;
        this.otherTrees = otherTrees;
    }

    /**
     * The in-memory substrate address {@link #neighbour(LogicalAddress)} gives neighbour {@code a}:
     * {@code mem:n<bits of a>}.
     */
    public static SubstrateAddress addressOf(LogicalAddress a) {
        return SubstrateAddress.mem("n" + a.toBits());
    }

    /** Adds (or re-addresses) neighbour {@code a}, reached at {@link #addressOf addressOf(a)}. */
    public FixedTopology neighbour(LogicalAddress a) {
        return neighbour(a, addressOf(a));
    }

    /**
     * Adds (or re-addresses) neighbour {@code a}, reached at {@code at}.
     *
     * @param at the substrate address; {@code null}: known by its logical address only
     */
    public FixedTopology neighbour(LogicalAddress a, SubstrateAddress at) {
        Objects.requireNonNull(a, "neighbour");
        Map<LogicalAddress, SubstrateAddress> n = new LinkedHashMap<>(neighbours);
        n.put(a, at);
        return new FixedTopology(self, leader, version, Collections.unmodifiableMap(n), trees, otherTrees);
    }

    /**
     * In the tree rooted at {@code root}, this node's parent is {@code parent} ({@code null}: none)
     * and its children are {@code kids}, in that order. Each of them that is not this node and not
     * yet a neighbour becomes one, reached at {@link #addressOf}.
     */
    public FixedTopology tree(LogicalAddress root, LogicalAddress parent, LogicalAddress... kids) {
        Objects.requireNonNull(root, "root");
        Map<LogicalAddress, Place> t = new HashMap<>(trees);
        t.put(root, new Place(parent, List.of(kids)));
        return withMembers(parent, kids).with(Collections.unmodifiableMap(t), otherTrees);
    }

    /**
     * In every tree not given by {@link #tree}, this node's parent is {@code parent}
     * ({@code null}: none) and its children are {@code kids}. Each of them that is not this node and
     * not yet a neighbour becomes one, reached at {@link #addressOf}.
     */
    public FixedTopology otherTrees(LogicalAddress parent, LogicalAddress... kids) {
        return withMembers(parent, kids).with(trees, new Place(parent, List.of(kids)));
    }

    /** The same topology with the leader flag {@code leader}. */
    public FixedTopology leader(boolean leader) {
        return new FixedTopology(self, leader, version, neighbours, trees, otherTrees);
    }

    /** The same topology with version {@code version}. */
    public FixedTopology version(long version) {
        return new FixedTopology(self, leader, version, neighbours, trees, otherTrees);
    }

    private FixedTopology with(Map<LogicalAddress, Place> t, Place other) {
        return new FixedTopology(self, leader, version, neighbours, t, other);
    }

    private FixedTopology withMembers(LogicalAddress parent, LogicalAddress[] kids) {
        FixedTopology out = this;
        if (parent != null) {
            out = out.withMember(parent);
        }
        for (LogicalAddress k : Arrays.asList(kids)) {
            out = out.withMember(Objects.requireNonNull(k, "child"));
        }
        return out;
    }

    private FixedTopology withMember(LogicalAddress a) {
        // containsKey, not a null check: a neighbour known by logical address only maps to null
        return a.equals(self) || neighbours.containsKey(a) ? this : neighbour(a);
    }

    @Override
    public LogicalAddress self() {
        return self;
    }

    @Override
    public NodeState state() {
        return NodeState.STABLE;
    }

    @Override
    public boolean leader() {
        return leader;
    }

    @Override
    public Set<LogicalAddress> neighbours() {
        return neighbourSet;
    }

    @Override
    public SubstrateAddress substrateAddress(LogicalAddress neighbour) {
        return neighbour == null ? null : neighbours.get(neighbour);
    }

    @Override
    public LogicalAddress parent(LogicalAddress root) {
        return root == null || root.equals(self) ? null : place(root).parent();
    }

    @Override
    public List<LogicalAddress> children(LogicalAddress root) {
        return place(root).children();
    }

    private Place place(LogicalAddress root) {
        Place p = root == null ? null : trees.get(root);
        return p != null ? p : otherTrees;
    }

    @Override
    public long version() {
        return version;
    }

    @Override
    public String toString() {
        return "FixedTopology[self=" + self + ", neighbours=" + neighbourSet + ", version=" + version + "]";
    }
}
