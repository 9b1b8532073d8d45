package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.event.AttributeValues;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The node the checker runs the spec on and its K abstract peers, with fixed logical addresses:
 * peer 1 is the parent, peers 2 … K−1 are children, and from K = 4 on the last peer is a
 * neighbour outside the tree (K = 3 gives a parent and two children, so "every child
 * acknowledged" queries see a partial answer before the full one). A message whose filter says
 * {@code SourceAddress=local} comes from the node's own application.
 *
 * <p>Trees: in the tree rooted at this node every peer but the neighbour is a child; in a tree
 * rooted at a peer that peer is the parent and the other tree peers are children; in any other
 * tree the parent peer is the parent. This is what {@code updateNodeInfo} records.
 *
 * <p>Immutable.
 */
public final class AbstractNode implements Topology {

    /** The role of a peer. */
    public enum Role {
        /** The node's parent in the trees of other roots. */
        PARENT,
        /** A child in the trees of other roots. */
        CHILD,
        /** A neighbour that is neither parent nor child. */
        NEIGHBOUR
    }

    /**
     * One abstract peer.
     *
     * @param name    how traces name it: {@code parent}, {@code child1}, {@code neighbour}
     * @param role    its role
     * @param address its logical address
     */
    public record Peer(String name, Role role, LogicalAddress address) {

        /** Requires every field. */
        public Peer {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(address, "address");
        }

        @Override
        public String toString() {
            return name + "(" + AttributeValues.text(address) + ")";
        }
    }

    /** Most peers: more would multiply the inputs without exercising anything new. */
    public static final int MAX_PEERS = 16;

    private final LogicalAddress self;
    private final List<Peer> peers;
    private final FixedTopology topology;
    private final LogicalAddress remote;
    private final LogicalAddress far;

    private AbstractNode(LogicalAddress self, List<Peer> peers, LogicalAddress remote, LogicalAddress far) {
        this.self = self;
        this.peers = List.copyOf(peers);
        this.topology = topology(self, this.peers);
        this.remote = remote;
        this.far = far;
    }

    /** The trees the class comment describes; every peer is a neighbour without a substrate address. */
    private static FixedTopology topology(LogicalAddress self, List<Peer> peers) {
        FixedTopology t = new FixedTopology(self);
        List<LogicalAddress> inTree = new ArrayList<>();
        for (Peer p : peers) {
            t = t.neighbour(p.address(), null);
            if (p.role() != Role.NEIGHBOUR) {
                inTree.add(p.address());
            }
        }
        t = t.tree(self, null, inTree.toArray(LogicalAddress[]::new));
        for (LogicalAddress root : inTree) {
            t = t.tree(root, root, othersThan(inTree, root));
        }
        return t.otherTrees(peers.get(0).address(), othersThan(inTree, peers.get(0).address()));
    }

    private static LogicalAddress[] othersThan(List<LogicalAddress> all, LogicalAddress left) {
        return all.stream().filter(a -> !a.equals(left)).toArray(LogicalAddress[]::new);
    }

    /**
     * A node with {@code k} peers (1 … {@value #MAX_PEERS}).
     *
     * @param family the address family the spec's literal addresses use (tree when none)
     */
    public static AbstractNode of(int k, LogicalAddress.Family family) {
        if (k < 1 || k > MAX_PEERS) {
            throw new IllegalArgumentException("peers must be 1.." + MAX_PEERS + ", got " + k);
        }
        List<Peer> peers = new ArrayList<>();
        peers.add(new Peer("parent", Role.PARENT, address(family, 1)));
        int children = k >= 4 ? k - 2 : k - 1;
        for (int i = 1; i <= children; i++) {
            peers.add(new Peer("child" + i, Role.CHILD, address(family, 10 + i)));
        }
        if (k >= 4) {
            peers.add(new Peer("neighbour", Role.NEIGHBOUR, address(family, 30)));
        }
        return new AbstractNode(address(family, 5), peers, address(family, 90), address(family, 91));
    }

    private static LogicalAddress address(LogicalAddress.Family family, int n) {
        return family == LogicalAddress.Family.DT ? new DtAddress(n, 0) : new TreeAddress(n);
    }

    /** The peers, parent first. */
    public List<Peer> peers() {
        return peers;
    }

    /** A node further away than any peer: the source of a flow-scope instance's messages. */
    public LogicalAddress remote() {
        return remote;
    }

    /** A node beyond the peers that unicasts relayed by this node are addressed to. */
    public LogicalAddress far() {
        return far;
    }

    /** How traces name an address: a peer's name, {@code self}, {@code remote}, or the address. */
    public String nameOf(LogicalAddress a) {
        if (a == null) {
            return "-";
        }
        if (a.equals(self)) {
            return "self";
        }
        if (a.equals(remote)) {
            return "remote";
        }
        if (a.equals(far)) {
            return "far";
        }
        for (Peer p : peers) {
            if (p.address().equals(a)) {
                return p.name();
            }
        }
        return AttributeValues.text(a);
    }

    @Override
    public LogicalAddress self() {
        return self;
    }

    @Override
    public NodeState state() {
        return topology.state();
    }

    @Override
    public boolean leader() {
        return topology.leader();
    }

    @Override
    public Set<LogicalAddress> neighbours() {
        return topology.neighbours();
    }

    @Override
    public SubstrateAddress substrateAddress(LogicalAddress neighbour) {
        return topology.substrateAddress(neighbour);
    }

    @Override
    public LogicalAddress parent(LogicalAddress root) {
        return topology.parent(root);
    }

    @Override
    public List<LogicalAddress> children(LogicalAddress root) {
        return topology.children(root);
    }

    @Override
    public long version() {
        return topology.version();
    }
}
