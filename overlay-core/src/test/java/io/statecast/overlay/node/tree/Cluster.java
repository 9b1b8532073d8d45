package io.statecast.overlay.node.tree;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.ForwardingEngine;
import io.statecast.overlay.forward.MessageIds;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.NodeEnvironment;
import io.statecast.overlay.node.NodeState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/** Tree nodes, each with a forwarding engine, on a {@link SimNet} driven by a {@link SimClock}. */
final class Cluster {

    static final TreeSettings DEFAULTS = new TreeSettings(250, 250, 10_000, 2_000, 4, 64, 64, 4096, 10, List.of());

    final SimClock clock = new SimClock();
    final SimNet net;
    final Random random;
    final long seed;
    final Map<Long, Member> members = new LinkedHashMap<>();
    TreeSettings settings = DEFAULTS;

    /** One node of the cluster. */
    static final class Member {
        final TreeNode node;
        final SubstrateAddress address;
        final ForwardingEngine engine;
        final List<OverlayMessage> delivered;
        final List<Long> buddies;
        boolean alive = true;

        Member(TreeNode node, SubstrateAddress address, ForwardingEngine engine, List<OverlayMessage> delivered, List<Long> buddies) {
            this.node = node;
            this.address = address;
            this.engine = engine;
            this.delivered = delivered;
            this.buddies = buddies;
        }

        TreeTopology topology() {
            return node.topology();
        }

        long id() {
            return node.localAddress().id();
        }
    }

    Cluster(long seed) {
        this.seed = seed;
        this.random = new Random(seed);
        this.net = new SimNet(clock, random.nextLong());
    }

    static SubstrateAddress addressOf(long id) {
        return SubstrateAddress.mem("n" + id);
    }

    Member add(long id, List<Long> buddyIds) {
        SubstrateAddress a = addressOf(id);
        List<SubstrateAddress> buddies = buddyIds.stream().map(Cluster::addressOf).toList();
        NodeEnvironment env = new NodeEnvironment((to, m) -> net.send(a, to, m), List.of(a), clock, new Random(random.nextLong()));
        TreeNode node = new TreeNode(new TreeAddress(id), settings.withBuddies(buddies), env);
        List<OverlayMessage> delivered = new CopyOnWriteArrayList<>();
        ForwardingEngine engine = new ForwardingEngine(node.localAddress(), node::topology, (to, msg) -> net.send(a, to, msg),
                delivered::add, clock, new MessageIds(random), new ForwardingEngine.Settings(255, 4096));
        Member member = new Member(node, a, engine, delivered, buddyIds);
        net.attach(a, (msg, from) -> {
            if (msg instanceof ProtocolMessage p) {
                node.onProtocolMessage(p, from);
            } else {
                engine.onReceive((OverlayMessage) msg, from);
            }
        });
        members.put(id, member);
        return member;
    }

    /**
     * N nodes with distinct random ids; node k gets min(k, {@code buddies}) distinct random earlier
     * nodes as buddies. With two or more buddies the mesh is 2-connected (each node is an ear on two
     * distinct earlier nodes), so no single crash or leave partitions it.
     */
    List<Member> random(int n, int buddies) {
        Set<Long> ids = new HashSet<>();
        List<Long> order = new ArrayList<>();
        while (order.size() < n) {
            long id = 1 + random.nextInt(1_000_000);
            if (ids.add(id)) {
                order.add(id);
            }
        }
        List<Member> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            Set<Long> b = new HashSet<>();
            while (b.size() < Math.min(buddies, k)) {
                b.add(order.get(random.nextInt(k)));
            }
            out.add(add(order.get(k), List.copyOf(b)));
        }
        return out;
    }

    void joinAll() {
        members.values().forEach(m -> m.node.join());
    }

    List<Member> alive() {
        return members.values().stream().filter(m -> m.alive).toList();
    }

    /** Stops a node without a word: its messages vanish from now on. */
    void crash(Member m) {
        m.alive = false;
        net.detach(m.address);
    }

    long maxId() {
        return alive().stream().mapToLong(Member::id).max().orElseThrow();
    }

    /**
     * True if the alive nodes form one spanning tree rooted at the largest id: all stable, all agree
     * on the root, N-1 symmetric tree edges, and the root knows every other node below it.
     */
    boolean converged() {
        List<Member> alive = alive();
        long max = maxId();
        Map<Long, TreeTopology> views = new HashMap<>();
        for (Member m : alive) {
            views.put(m.id(), m.topology());
        }
        int degrees = 0;
        for (TreeTopology t : views.values()) {
            if (t.state() != NodeState.STABLE || t.rootId() != max) {
                return false;
            }
            for (LogicalAddress n : t.neighbours()) {
                TreeTopology other = views.get(((TreeAddress) n).id());
                if (other == null || !other.neighbours().contains(t.self())) {
                    return false;
                }
            }
            degrees += t.neighbours().size();
        }
        return degrees == 2 * (alive.size() - 1) && views.get(max).descendants().size() == alive.size() - 1;
    }

    String describe() {
        StringBuilder b = new StringBuilder("seed=" + seed + " t=" + clock.nowMs() + "ms\n");
        alive().forEach(m -> b.append("  ").append(m.topology()).append(" ").append(m.node.counters()).append("\n"));
        return b.toString();
    }
}
