package io.statecast.overlay.forward;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A hand-built topology: neighbours with substrate addresses, and parent/children per root. */
final class FakeTopology implements Topology {

    private final LogicalAddress self;
    private final Map<LogicalAddress, SubstrateAddress> neighbours = new LinkedHashMap<>();
    private final Map<LogicalAddress, LogicalAddress> parents = new HashMap<>();
    private final Map<LogicalAddress, List<LogicalAddress>> children = new HashMap<>();

    FakeTopology(LogicalAddress self) {
        this.self = self;
    }

    FakeTopology neighbour(LogicalAddress a) {
        neighbours.put(a, SubstrateAddress.mem("n" + a.toBits()));
        return this;
    }

    /** A neighbour known by logical address only (its substrate address is missing). */
    FakeTopology neighbourWithoutAddress(LogicalAddress a) {
        neighbours.put(a, null);
        return this;
    }

    FakeTopology tree(LogicalAddress root, LogicalAddress parent, LogicalAddress... kids) {
        parents.put(root, parent);
        children.put(root, List.of(kids));
        return this;
    }

    static SubstrateAddress addressOf(LogicalAddress a) {
        return SubstrateAddress.mem("n" + a.toBits());
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
        return neighbours.keySet();
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
