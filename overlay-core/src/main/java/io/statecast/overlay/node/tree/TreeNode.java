package io.statecast.overlay.node.tree;

import io.statecast.overlay.node.ProtocolBodyException;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.NodeEnvironment;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.OverlayNode;
import io.statecast.overlay.node.BuddyCache;
import io.statecast.overlay.node.ProtocolNode;
import io.statecast.overlay.node.tree.TreeMessages.Beacon;
import io.statecast.overlay.node.tree.TreeMessages.Goodbye;
import io.statecast.overlay.node.tree.TreeMessages.TreeMessage;
import io.statecast.overlay.node.NodeEvent;
import io.statecast.overlay.substrate.TimerService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An overlay node that builds one spanning tree over nodes with integer ids — the simpler of
 * Statecast's two overlays (after the spanning-tree design in {@code dt-overlay.md}).
 *
 * <h2>Protocol</h2>
 * <ul>
 *   <li><b>Links.</b> Nodes that exchange beacons are <em>links</em>. A node finds its first
 *       links through its buddy list (configured substrate addresses): it sends them beacons, and
 *       a node that receives a beacon from a stranger makes it a link (up to {@code maxLinks};
 *       beyond that it answers Goodbye) and answers at once. Links are kept by beacons every
 *       heartbeat and dropped after {@code timeoutMs} of silence or on Goodbye. Addresses of
 *       links that timed out go to a small buddy cache, so a healed partition is found again.
 *       Every {@code rendezvousMs} a node beacons one buddy that is not a link (all of them while
 *       it has no link), which is how separately started trees find each other and merge.</li>
 *   <li><b>Round-trip times.</b> Every beacon to a link carries this node's timestamp and echoes
 *       the last one the link sent, with how long it was held; an echo gives a sample of the RTT
 *       to that link, smoothed per link ({@link #rtt}) and forgotten with the link.</li>
 *   <li><b>Tree.</b> Each beacon offers (root id, root sequence, hops, parent). A node adopts as
 *       parent the link offering the largest root, then the fewest hops (then its current parent,
 *       then the larger id) — never a link whose parent is itself, never an offer beyond
 *       {@code maxHops}, and never a root larger than its own id that has gone stale; if no offer
 *       beats its own id it is a root. So the root is the largest id reachable.</li>
 *   <li><b>Count-to-infinity.</b> A crashed root's id keeps circulating in stale offers. Two
 *       guards stop it: the hop cap, and root freshness — a root advances a sequence number (a
 *       random epoch in the high 32 bits, a counter in the low) every heartbeat; an offer whose
 *       root's sequence has not advanced for {@code timeoutMs} is ignored. A crashed root is thus
 *       forgotten within about one timeout whatever the diameter; a restarted one gets a new epoch.</li>
 *   <li><b>Routing.</b> Each node sends its parent the ids of its subtree. A node thus knows, for
 *       every node below it, the child toward it; any other node is toward its parent. That gives
 *       {@code parent(s)} and {@code children(s)} for a tree rooted at any node {@code s}
 *       ({@link TreeTopology}).</li>
 *   <li>A change of the node's own offer triggers one extra round of beacons between heartbeats,
 *       so a change travels at network speed rather than one hop per heartbeat.</li>
 *   <li><b>Tree edges are acknowledged.</b> A node's beacons to the links it counts as children
 *       say so (the CHILD flag), and a node that gains a child answers it at once. A node uses
 *       its chosen parent as a tree neighbour — forwards to it and counts as joined — only once
 *       the parent's beacons acknowledge it; it accepts multicasts from it at once. So the parent
 *       never drops the child's traffic for not knowing the child yet, and a child's
 *       {@code join} returns only once its parent forwards to it — within one round trip of
 *       choosing it, never a heartbeat. (A node that joins as the new parent of a node that
 *       was alone counts as joined on the child's claim; the child forwards to it one one-way
 *       delay later, when the acknowledgement arrives.)</li>
 * </ul>
 * Message bodies and their bounds are in {@link TreeMessages}. Neighbours (for forwarding) are the
 * tree neighbours: the parent and the children.
 *
 * <h2>Threads</h2>
 * All protocol state is confined to the timer service's thread; see {@link OverlayNode}.
 */
public final class TreeNode extends ProtocolNode<TreeTopology> {

    private static final Logger LOG = LoggerFactory.getLogger(TreeNode.class);
    /** Root incarnations whose freshness is tracked at most; far more than a healthy overlay shows. */
    static final int MAX_ROOTS_TRACKED = 1024;
    /**
     * Protocol messages waiting for the protocol thread at most; more are dropped and counted, so
     * a flood from the network cannot grow the timer queue without bound. A healthy node has a
     * few per link and heartbeat waiting.
     */
    static final int MAX_PENDING_MESSAGES = 10_000;

    private final TreeAddress self;
    private final long selfId;
    private final TreeSettings settings;
    private final NodeEnvironment env;
    private final long timeoutNanos;

    // ---- protocol-thread state ----
    private boolean running;
    private boolean left;
    private final TreeMap<Long, Link> links = new TreeMap<>();
    private final Map<RootEpoch, Freshness> freshness = new HashMap<>();
    private final BuddyCache buddyCache;
    private final int epoch;
    private long counter;
    private long rootId;
    private long rootSeq;
    private int hops;
    private boolean hasParent;
    private long parentId;
    private final List<Link> children = new ArrayList<>();
    /** Links that became children in the last recompute: they are answered at once. */
    private final List<Link> newChildren = new ArrayList<>();
    private Map<Long, TreeAddress> routes = Map.of();
    private long[] subtree;
    private boolean subtreeTruncated;
    private int unchangedTicks;
    private boolean triggeredSinceTick;
    private int rendezvousCursor;
    private TimerService.Timer heartbeatTimer;
    private TimerService.Timer rendezvousTimer;
    private long version;

    /**
     * @param self     this node's address
     * @param settings protocol settings
     * @param env      transport, local addresses, timers, randomness
     */
    public TreeNode(TreeAddress self, TreeSettings settings, NodeEnvironment env) {
        super(env, MAX_PENDING_MESSAGES, TreeTopology.stopped(Objects.requireNonNull(self, "self")));
        this.self = self;
        this.selfId = self.id();
        this.settings = Objects.requireNonNull(settings, "settings");
        this.env = env;
        this.buddyCache = new BuddyCache(settings.buddyCacheSize());
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.timeoutMs());
        this.epoch = env.random().nextInt();
        this.rootId = selfId;
        this.subtree = new long[] {selfId};
    }

    @Override
    public TreeAddress localAddress() {
        return self;
    }

    // ------------------------------------------------------------------------------------ lifecycle

    @Override
    protected void start() {
        if (running || left) {
            return;
        }
        running = true;
        counter = 0;
        rootId = selfId;
        rootSeq = ownSeq();
        hops = 0;
        hasParent = false;
        publish();
        long jitter = (long) (env.random().nextDouble() * TimeUnit.MILLISECONDS.toNanos(settings.fastHeartbeatMs()));
        heartbeatTimer = timers.schedule(jitter, TimeUnit.NANOSECONDS, this::tick);
        rendezvous();
    }

    @Override
    protected void stop() {
        left = true;
        if (!running) {
            return;
        }
        ProtocolMessage bye = TreeMessages.encode(new Goodbye(selfId));
        for (Link l : links.values()) {
            send(l.address, bye, NodeEvent.GOODBYES_SENT);
        }
        running = false;
        cancel(heartbeatTimer);
        cancel(rendezvousTimer);
        links.clear();
        rtts.clear();
        children.clear();
        routes = Map.of();
        publish(TreeTopology.stopped(self).withState(NodeState.STOPPED, ++version), true);
    }

    private static void cancel(TimerService.Timer t) {
        if (t != null) {
            t.cancel();
        }
    }

    // ------------------------------------------------------------------------------------ timers

    private void tick() {
        if (!running) {
            return;
        }
        long now = timers.nanoTime();
        expireLinks(now);
        Set<TreeAddress> linked = new HashSet<>();
        for (Link l : links.values()) {
            linked.add(l.logical);
        }
        rtts.retainOnly(linked);
        freshness.values().removeIf(f -> now - f.lastSeen > 3 * timeoutNanos);
        if (!hasParent) {
            counter++;
        }
        recompute(now);
        sendBeacons(); // acknowledges new children too
        newChildren.clear();
        triggeredSinceTick = false;
        publish();
        unchangedTicks++;
        publish(); // the state may have become STABLE
        long next = unchangedTicks < settings.stableAfterHeartbeats() ? settings.fastHeartbeatMs() : settings.slowHeartbeatMs();
        heartbeatTimer = timers.schedule(next, TimeUnit.MILLISECONDS, this::tick);
    }

    private void expireLinks(long now) {
        for (Iterator<Link> it = links.values().iterator(); it.hasNext(); ) {
            Link l = it.next();
            if (now - l.lastHeard > timeoutNanos) {
                it.remove();
                rtts.forget(l.logical);
                count(NodeEvent.LINKS_TIMED_OUT);
                buddyCache.remember(l.address);
                LOG.debug("{}: link #{} timed out", self, l.id);
            }
        }
    }

    private void rendezvous() {
        if (!running) {
            return;
        }
        LinkedHashSet<SubstrateAddress> candidates = new LinkedHashSet<>(settings.buddies());
        candidates.addAll(buddyCache.addresses());
        candidates.removeAll(env.localAddresses());
        for (Link l : links.values()) {
            candidates.remove(l.address);
        }
        if (!candidates.isEmpty()) {
            ProtocolMessage beacon = TreeMessages.encode(beacon(false).withStamp(bareStamp()));
            if (links.isEmpty()) {
                for (SubstrateAddress a : candidates) {
                    send(a, beacon, NodeEvent.RENDEZVOUS_SENT);
                }
            } else {
                List<SubstrateAddress> list = new ArrayList<>(candidates);
                send(list.get(Math.floorMod(rendezvousCursor++, list.size())), beacon, NodeEvent.RENDEZVOUS_SENT);
            }
        }
        rendezvousTimer = timers.schedule(settings.rendezvousMs(), TimeUnit.MILLISECONDS, this::rendezvous);
    }

    // ------------------------------------------------------------------------------------ messages

    @Override
    protected void handle(ProtocolMessage message, SubstrateAddress from) {
        if (!running) {
            count(NodeEvent.IGNORED_WHILE_STOPPED);
            return;
        }
        TreeMessage m;
        try {
            m = TreeMessages.decode(message, settings.maxSubtreeIds());
        } catch (ProtocolBodyException e) {
            countMalformed(e.reason());
            LOG.debug("{}: dropped malformed protocol message from {}: {}", self, from, e.getMessage());
            return;
        }
        if (m instanceof Beacon b) {
            count(NodeEvent.BEACONS_RECEIVED);
            onBeacon(b, from);
        } else if (m instanceof Goodbye g) {
            count(NodeEvent.GOODBYES_RECEIVED);
            Link l = links.remove(g.sender());
            if (l != null) {
                rtts.forget(l.logical);
                afterEvent(null);
            }
        }
    }

    private void onBeacon(Beacon b, SubstrateAddress from) {
        if (b.sender() == selfId) {
            count(env.localAddresses().contains(from) ? NodeEvent.SELF_CONTACT : NodeEvent.DUPLICATE_ID);
            return;
        }
        long now = timers.nanoTime();
        Link l = links.get(b.sender());
        boolean isNew = l == null;
        if (isNew) {
            if (links.size() >= settings.maxLinks()) {
                send(from, TreeMessages.encode(new Goodbye(selfId)), NodeEvent.REFUSED_LINKS);
                return;
            }
            l = new Link(b.sender());
            links.put(b.sender(), l);
            count(NodeEvent.LINKS_ADDED);
        }
        l.address = pick(b.addresses(), from);
        l.lastHeard = now;
        l.root = b.root();
        l.rootSeq = b.rootSeq();
        l.hops = b.hops();
        l.hasParent = b.hasParent();
        l.parent = b.parent();
        l.subtree = b.subtree();
        l.acceptsMe = b.child();
        receiveStamp(l.logical, b.stamp());
        observeRoot(b.root(), b.rootSeq(), now);
        // a new link is answered at once, so it forms in one round trip — after the recompute, so
        // the answer carries the offer this beacon may have changed (two beacons sent back to back
        // could arrive in the other order and leave the stale one as the link's last word)
        afterEvent(isNew ? l : null);
    }

    /** The advertised address on the scheme the beacon came in on, else the sender address itself. */
    private static SubstrateAddress pick(List<SubstrateAddress> advertised, SubstrateAddress from) {
        if (from == null) {
            return advertised.get(0);
        }
        for (SubstrateAddress a : advertised) {
            if (a.scheme() == from.scheme()) {
                return a;
            }
        }
        return from;
    }

    /** Recomputes after a message; {@code answer} is a new link that must hear from this node now, or null. */
    private void afterEvent(Link answer) {
        boolean changed = recompute(timers.nanoTime());
        if (changed && !triggeredSinceTick) {
            triggeredSinceTick = true;
            sendBeacons();
        } else {
            if (!newChildren.isEmpty()) {
                // the offer is unchanged, but a child waits for this acknowledgement before it uses the edge
                Beacon ack = beacon(false, true);
                for (Link c : newChildren) {
                    send(c, ack, NodeEvent.CHILD_ACKS_SENT);
                }
            }
            if (answer != null && !newChildren.contains(answer)) {
                send(answer, beacon(hasParent && answer.id == parentId, answer.child), NodeEvent.BEACONS_SENT);
            }
        }
        newChildren.clear();
        publish();
    }

    // ------------------------------------------------------------------------------------ tree

    private void observeRoot(long root, long seq, long now) {
        RootEpoch key = new RootEpoch(root, (int) (seq >>> 32));
        long c = seq & 0xFFFF_FFFFL;
        Freshness f = freshness.get(key);
        if (f == null) {
            if (freshness.size() >= MAX_ROOTS_TRACKED) {
                // bounded against beacons naming ever new roots: forget the one unseen longest
                RootEpoch oldest = null;
                long oldestSeen = Long.MAX_VALUE;
                for (Map.Entry<RootEpoch, Freshness> e : freshness.entrySet()) {
                    if (e.getValue().lastSeen < oldestSeen) {
                        oldestSeen = e.getValue().lastSeen;
                        oldest = e.getKey();
                    }
                }
                freshness.remove(oldest);
                count(NodeEvent.ROOTS_FORGOTTEN);
            }
            freshness.put(key, new Freshness(c, now));
        } else {
            f.lastSeen = now;
            if (c > f.maxCounter) {
                f.maxCounter = c;
                f.lastAdvance = now;
            }
        }
    }

    private boolean fresh(Link l, long now) {
        Freshness f = freshness.get(new RootEpoch(l.root, (int) (l.rootSeq >>> 32)));
        return f != null && now - f.lastAdvance <= timeoutNanos;
    }

    private long ownSeq() {
        return ((long) epoch << 32) | (counter & 0xFFFF_FFFFL);
    }

    /** Chooses the parent and derives children, routes and the subtree; true if the node's own offer changed. */
    private boolean recompute(long now) {
        Link best = null;
        for (Link l : links.values()) {
            if (l.lastHeard == Long.MIN_VALUE
                    || (l.hasParent && l.parent == selfId)
                    || l.root <= selfId
                    || l.hops + 1 > settings.maxHops()
                    || !fresh(l, now)) {
                continue;
            }
            if (best == null || better(l, best)) {
                best = l;
            }
        }
        long newRoot = best == null ? selfId : best.root;
        int newHops = best == null ? 0 : best.hops + 1;
        boolean newHasParent = best != null;
        long newParent = best == null ? 0 : best.id;
        boolean changed = newRoot != rootId || newHops != hops || newHasParent != hasParent || newParent != parentId;
        rootId = newRoot;
        hops = newHops;
        hasParent = newHasParent;
        parentId = newParent;
        rootSeq = best == null ? ownSeq() : best.rootSeq;

        children.clear();
        newChildren.clear();
        Map<Long, TreeAddress> r = new HashMap<>();
        for (Link l : links.values()) {
            boolean isChild = l.hasParent && l.parent == selfId && l.root == rootId && !(hasParent && l.id == parentId);
            if (isChild && !l.child) {
                newChildren.add(l);
            }
            l.child = isChild;
            if (isChild) {
                children.add(l);
                TreeAddress child = new TreeAddress(l.id);
                r.put(l.id, child);
                if (l.subtree != null) {
                    for (long id : l.subtree) {
                        if (id != selfId) {
                            r.putIfAbsent(id, child);
                        }
                    }
                }
            }
        }
        routes = r;
        int n = Math.min(r.size() + 1, settings.maxSubtreeIds());
        subtreeTruncated = r.size() + 1 > settings.maxSubtreeIds();
        long[] s = new long[n];
        s[0] = selfId;
        int i = 1;
        for (Long id : r.keySet()) {
            if (i == n) {
                break;
            }
            s[i++] = id;
        }
        Arrays.sort(s);
        subtree = s;
        return changed;
    }

    private boolean better(Link a, Link b) {
        if (a.root != b.root) {
            return a.root > b.root;
        }
        if (a.hops != b.hops) {
            return a.hops < b.hops;
        }
        if (hasParent && (a.id == parentId || b.id == parentId)) {
            return a.id == parentId;
        }
        return a.id > b.id;
    }

    private Beacon beacon(boolean toParent) {
        return beacon(toParent, false);
    }

    /** A beacon, without timestamps; {@code toChild} acknowledges the receiver as this node's child. */
    private Beacon beacon(boolean toParent, boolean toChild) {
        List<SubstrateAddress> addrs = env.localAddresses();
        if (addrs.size() > TreeMessages.MAX_ADDRESSES) {
            addrs = addrs.subList(0, TreeMessages.MAX_ADDRESSES);
        }
        if (toParent && subtreeTruncated) {
            count(NodeEvent.SUBTREE_TRUNCATED);
        }
        return new Beacon(selfId, rootId, rootSeq, hasParent, hasParent ? parentId : 0, hops, addrs,
                toParent ? subtree : null, toParent && subtreeTruncated, toChild);
    }

    /** Sends {@code b} to the link {@code l}, stamped for it (its own send time, the echo of the link's). */
    private void send(Link l, Beacon b, NodeEvent counter) {
        send(l.address, TreeMessages.encode(b.withStamp(stampFor(l.logical))), counter);
    }

    private void sendBeacons() {
        if (links.isEmpty()) {
            return;
        }
        Beacon plain = beacon(false);
        Beacon toParent = hasParent ? beacon(true) : null;
        Beacon toChild = children.isEmpty() ? null : beacon(false, true);
        for (Link l : links.values()) {
            send(l, hasParent && l.id == parentId ? toParent : l.child ? toChild : plain, NodeEvent.BEACONS_SENT);
        }
    }

    // ------------------------------------------------------------------------------------ publication

    private void publish() {
        if (!running) {
            return;
        }
        Map<LogicalAddress, SubstrateAddress> nbrs = new LinkedHashMap<>();
        // multicasts from the chosen parent are accepted at once (it forwards to this node as soon
        // as it has the claim), but it is a neighbour — forwarded to, and counted for joining —
        // only once it has acknowledged this node, so it never drops what this node sends it
        TreeAddress parent = hasParent ? new TreeAddress(parentId) : null;
        Link up = hasParent ? links.get(parentId) : null;
        if (up != null && up.acceptsMe) {
            nbrs.put(parent, up.address);
        }
        for (Link c : children) {
            nbrs.put(new TreeAddress(c.id), c.address);
        }
        TreeTopology old = topology();
        TreeTopology view = new TreeTopology(self, old.state(), old.version(), rootId, hops, parent, nbrs, routes, links.size());
        boolean treeChanged = !view.sameTree(old) || old.state() == NodeState.STOPPED;
        if (treeChanged) {
            unchangedTicks = 0;
        }
        NodeState state = state(nbrs.isEmpty());
        if (!treeChanged && state == old.state() && view.links() == old.links()) {
            return;
        }
        publish(view.withState(state, ++version), treeChanged || state != old.state());
    }

    private NodeState state(boolean noTreeNeighbour) {
        if (noTreeNeighbour) {
            return links.isEmpty() && settings.buddies().isEmpty() ? NodeState.STABLE : NodeState.JOINING;
        }
        return unchangedTicks >= settings.stableAfterHeartbeats() ? NodeState.STABLE : NodeState.INCOMPLETE;
    }

    // ------------------------------------------------------------------------------------ state types

    /** A peer exchanging beacons with this node, and its last offer. Protocol thread only. */
    private static final class Link {
        final long id;
        /** {@link #id} as a logical address (the key of the link's round-trip time). */
        final TreeAddress logical;
        SubstrateAddress address;
        long lastHeard = Long.MIN_VALUE;
        long root;
        long rootSeq;
        int hops;
        boolean hasParent;
        long parent;
        long[] subtree;
        /** Whether this node counts the link as its child (as of the last recompute). */
        boolean child;
        /** Whether the link's last beacon acknowledged this node as its child. */
        boolean acceptsMe;

        Link(long id) {
            this.id = id;
            this.logical = new TreeAddress(id);
        }
    }

    /** A root incarnation: its id and the epoch it chose at start. */
    private record RootEpoch(long root, int epoch) {
    }

    /** When a root incarnation's sequence last advanced. */
    private static final class Freshness {
        long maxCounter;
        long lastAdvance;
        long lastSeen;

        Freshness(long counter, long now) {
            this.maxCounter = counter;
            this.lastAdvance = now;
            this.lastSeen = now;
        }
    }

    @Override
    public String toString() {
        return "TreeNode" + topology();
    }
}
