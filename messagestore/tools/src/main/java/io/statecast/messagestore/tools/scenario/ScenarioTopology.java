package io.statecast.messagestore.tools.scenario;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The fixed topology a {@link NodeSetup} describes: a stable node that is not the leader. */
final class ScenarioTopology implements Topology {

    private final NodeSetup node;
    private final long version;

    ScenarioTopology(NodeSetup node, long version) {
        this.node = node;
        this.version = version;
    }

    @Override
    public LogicalAddress self() {
        return node.address();
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
        if (node.neighbours() != null) {
            return Set.copyOf(node.neighbours());
        }
        Set<LogicalAddress> all = new LinkedHashSet<>();
        if (node.parent() != null) {
            all.add(node.parent());
        }
        all.addAll(node.children());
        for (NodeSetup.Tree t : node.trees().values()) {
            if (t.parent() != null) {
                all.add(t.parent());
            }
            all.addAll(t.children());
        }
        all.remove(node.address());
        return Set.copyOf(all);
    }

    @Override
    public SubstrateAddress substrateAddress(LogicalAddress neighbour) {
        return null;
    }

    @Override
    public LogicalAddress parent(LogicalAddress root) {
        if (root.equals(node.address())) {
            return null;
        }
        NodeSetup.Tree t = node.trees().get(root);
        return t != null ? t.parent() : node.parent();
    }

    @Override
    public List<LogicalAddress> children(LogicalAddress root) {
        NodeSetup.Tree t = node.trees().get(root);
        return t != null ? t.children() : node.children();
    }

    @Override
    public long version() {
        return version;
    }
}
