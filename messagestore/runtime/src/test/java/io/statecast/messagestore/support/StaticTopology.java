package io.statecast.messagestore.support;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A fixed topology for tests: neighbours, and per tree root a parent and children. */
public final class StaticTopology implements Topology {

    private final LogicalAddress self;
    private final Set<LogicalAddress> neighbours = new LinkedHashSet<>();
    private final Map<LogicalAddress, LogicalAddress> parents = new HashMap<>();
    private final Map<LogicalAddress, List<LogicalAddress>> children = new HashMap<>();

    public StaticTopology(LogicalAddress self) {
        this.self = self;
    }

    /** In the tree rooted at {@code root}, this node's parent is {@code parent} and its children {@code kids}. */
    public StaticTopology tree(LogicalAddress root, LogicalAddress parent, LogicalAddress... kids) {
        if (parent != null) {
            parents.put(root, parent);
            neighbours.add(parent);
        }
        children.put(root, List.of(kids));
        neighbours.addAll(List.of(kids));
        return this;
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
        return Set.copyOf(neighbours);
    }

    @Override
    public SubstrateAddress substrateAddress(LogicalAddress neighbour) {
        return null;
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
