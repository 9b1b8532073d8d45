package io.statecast.overlay.testkit;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A hand-built {@link Topology} for tests: a STABLE node that is not the leader, its neighbours
 * (each reached at {@link #addressOf} unless added without an address), and per tree root a
 * parent and children. Build it before handing it out; it does not change after.
 */
public final class FixedTopology implements Topology {

    private final LogicalAddress self;
    private final Map<LogicalAddress, SubstrateAddress> neighbours = new LinkedHashMap<>();
    private final Map<LogicalAddress, LogicalAddress> parents = new HashMap<>();
    private final Map<LogicalAddress, List<LogicalAddress>> children = new HashMap<>();

    /** A node with no neighbours and no trees yet. */
    public FixedTopology(LogicalAddress self) {
        this.self = self;
    }

    /** The in-memory substrate address a neighbour added here is reached at. */
    public static SubstrateAddress addressOf(LogicalAddress a) {
        return SubstrateAddress.mem("n" + a.toBits());
    }

    /** Adds {@code a} as a neighbour reached at {@link #addressOf addressOf(a)}. */
    public FixedTopology neighbour(LogicalAddress a) {
        neighbours.put(a, addressOf(a));
        return this;
    }

    /** Adds {@code a} as a neighbour known by its logical address only (no substrate address). */
    public FixedTopology neighbourWithoutAddress(LogicalAddress a) {
        neighbours.put(a, null);
        return this;
    }

    /**
     * In the tree rooted at {@code root}, this node's parent is {@code parent} ({@code null}: none)
     * and its children {@code kids}; each of them not yet a neighbour becomes one.
     */
    public FixedTopology tree(LogicalAddress root, LogicalAddress parent, LogicalAddress... kids) {
        if (parent != null) {
            parents.put(root, parent);
            addIfAbsent(parent);
        }
        children.put(root, List.of(kids));
        for (LogicalAddress k : kids) {
            addIfAbsent(k);
        }
        return this;
    }

    private void addIfAbsent(LogicalAddress a) {
        if (!neighbours.containsKey(a)) { // not putIfAbsent: a neighbour without an address maps to null
            neighbour(a);
        }
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
        return false;
    }

    @Override
    public Set<LogicalAddress> neighbours() {
        return Collections.unmodifiableSet(neighbours.keySet());
    }

    @Override
    public SubstrateAddress substrateAddress(LogicalAddress neighbour) {
        return neighbours.get(neighbour);
    }

    @Override
    public LogicalAddress parent(LogicalAddress root) {
        return parents.get(root);
    }

    @Override
    public List<LogicalAddress> children(LogicalAddress root) {
        return children.getOrDefault(root, List.of());
    }

    @Override
    public long version() {
        return 1;
    }
}
