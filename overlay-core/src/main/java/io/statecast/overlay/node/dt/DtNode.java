package io.statecast.overlay.node.dt;

import io.statecast.overlay.node.ProtocolBodyException;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.NodeEnvironment;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.OverlayNode;
import io.statecast.overlay.node.BuddyCache;
import io.statecast.overlay.node.ProtocolNode;
import io.statecast.overlay.node.dt.DtMessages.DtMessage;
import io.statecast.overlay.node.dt.DtMessages.Goodbye;
import io.statecast.overlay.node.dt.DtMessages.Hello;
import io.statecast.overlay.node.dt.DtMessages.IAmHere;
import io.statecast.overlay.node.dt.DtMessages.IAmLeader;
import io.statecast.overlay.node.dt.DtMessages.NewNode;
import io.statecast.overlay.node.dt.DtMessages.NodeRef;
import io.statecast.overlay.node.NodeEvent;
import io.statecast.overlay.substrate.TimerService;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An overlay node of a Delaunay-triangulation (DT) overlay, after HyperCast's DT protocol
 * (Liebeherr, Nahas, Si, IEEE JSAC 2002). Nodes have integer coordinates; each keeps as
 * neighbours exactly the nodes it is joined to in the Delaunay triangulation of all nodes, which
 * it finds by purely local tests; the trees of the overlay are compass-routing trees
 * ({@link DtTopology}). Protocol and timers: {@code docs/dt-overlay.md}; bodies: {@link DtMessages}.
 *
 * <h2>Protocol</h2>
 * <ul>
 *   <li><b>Neighbour table.</b> For each neighbour: its logical and substrate address, when it was
 *       last heard, the CW/CCW pair it last reported relative to this node, and whether it
 *       considers this node a neighbour. The table always equals the Delaunay neighbours of this
 *       node among the points it knows ({@link NeighbourTest#localNeighbours}): adding a node may
 *       evict others, which are told with a HelloNotNeighbor.</li>
 *   <li><b>Hello.</b> Every heartbeat a HelloNeighbor goes to each neighbour, reporting the
 *       neighbours immediately clockwise and counter-clockwise of it. A Hello from a neighbour
 *       updates its entry (any change switches to the fast heartbeat); a HelloNeighbor from an
 *       unknown node adds it if it passes the exact neighbour test ({@link NeighbourTest#passes})
 *       and is answered at once — with a HelloNeighbor if added, else with a HelloNotNeighbor
 *       that reports the node blocking it (as both CW and CCW) or the CW/CCW pair around it.</li>
 *   <li><b>Round-trip times.</b> Every Hello carries this node's timestamp and echoes the last
 *       one the addressee sent, with how long it was held; a Hello from a neighbour that echoes
 *       one gives a sample of the RTT to it, smoothed per neighbour ({@link #rtt}); a neighbour's
 *       estimate goes with it.</li>
 *   <li><b>Discovery.</b> Each heartbeat the node takes the nodes its neighbours reported (and
 *       those that HelloNotNeighbors from strangers reported, kept for a few seconds), keeps those
 *       that are not neighbours and pass the test, and sends a HelloNeighbor to the one closest to
 *       itself; a candidate that does not answer is tried again only after a few heartbeats.</li>
 *   <li><b>Timeouts and leave.</b> A neighbour whose last HelloNeighbor is older than the
 *       timeout is dropped (a HelloNotNeighbor does not keep it, so a one-sided relation dies out)
 *       and its substrate address goes to a small buddy cache. {@link #leave()} sends Goodbye to
 *       every neighbour; receivers drop the sender and go fast.</li>
 *   <li><b>Rendezvous.</b> Every {@code iAmHereMs}: a node without neighbours sends NewNode to
 *       every buddy (configured, plus the cache); a leader sends NewNode to one buddy that is not
 *       a neighbour (round robin) and floods an IAmLeader; any other node sends IAmHere, naming
 *       its partition's leader, to one such buddy. A NewNode is routed toward the joiner's
 *       coordinates ({@link DtTopology#nextHop}) until it reaches a node for which the joiner
 *       passes the neighbour test; that node sends the joiner a HelloNeighbor, and ordinary
 *       discovery does the rest. Every node that passes the NewNode on also sends the joiner a
 *       HelloNotNeighbor reporting its neighbours toward it, so that when a long path loses the
 *       NewNode the joiner walks on from there by direct Hellos. A node that gets an IAmHere from
 *       another partition (another
 *       leader, or none known) routes a NewNode for the sender: this is how overlays started from
 *       different buddies become one.</li>
 *   <li><b>States.</b> {@code JOINING} without neighbours (while there are buddies to try),
 *       {@code STABLE} after {@code stableAfterHeartbeats} heartbeats in which neither the table
 *       nor a report changed and no reported node passed the test without being a neighbour,
 *       {@code INCOMPLETE} otherwise.</li>
 *   <li><b>Leader.</b> A node none of whose neighbours has a greater address (x, then y) is a
 *       leader ({@link Leader}); a converged partition has exactly one.</li>
 *   <li><b>Duplicates.</b> A node that sees another node with its own coordinates — a Hello from
 *       it, a NewNode for it, or a report of it with a substrate address not its own — draws new
 *       coordinates from {@link DtSettings#redrawFrame()} if it is not settled in an overlay
 *       (never yet {@code STABLE}, or {@code JOINING} again after it lost its neighbours): it says Goodbye under the old ones,
 *       then joins again. With a fixed address it fails instead ({@link #failure()}). The node that already holds the coordinates answers the newcomer with
 *       a HelloNotNeighbor reporting the holder as both CW and CCW.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * All protocol state is confined to the timer service's thread; see {@link OverlayNode}.
 */
public final class DtNode extends ProtocolNode<DtTopology> {

    private static final Logger LOG = LoggerFactory.getLogger(DtNode.class);
    /** Protocol messages waiting for the protocol thread at most; more are dropped and counted. */
    static final int MAX_PENDING_MESSAGES = 10_000;
    /** Candidates reported by strangers kept at most (the closest to this node are kept). */
    static final int MAX_CANDIDATES = 64;
    /** Heartbeats a candidate reported by a stranger is kept. */
    static final int CANDIDATE_HEARTBEATS = 20;
    /** Candidates remembered as recently contacted at most. */
    static final int MAX_CONTACTED = 256;
    /** Heartbeats before a candidate that was sent a Hello is tried again. */
    static final int RECONTACT_HEARTBEATS = 4;
    /** Rendezvous intervals after which an announced leader that fell silent is forgotten. */
    static final int LEADER_STALE_INTERVALS = 3;

    private final DtSettings settings;
    private final NodeEnvironment env;
    private final long fastNanos;
    private final long slowNanos;
    private final long timeoutNanos;
    private final long leaderStaleNanos;
    private final List<SubstrateAddress> advertised;
    private volatile DtAddress self;
    private volatile String failure;

    // ---- protocol-thread state ----
    private boolean running;
    private boolean left;
    private boolean everStable;
    private final TreeMap<DtAddress, Neighbour> table = new TreeMap<>(Predicates.LEXICOGRAPHIC);
    private final LinkedHashMap<DtAddress, Candidate> candidates = new LinkedHashMap<>();
    private final LinkedHashMap<DtAddress, Long> contacted = new LinkedHashMap<>();
    private final BuddyCache buddyCache;
    private int unchangedTicks;
    /** The table or a report changed since the last publication. */
    private boolean dirty;
    private int redraws;
    private int rendezvousCursor;
    private TimerService.Timer heartbeatTimer;
    private long heartbeatDue;
    private TimerService.Timer rendezvousTimer;
    private DtAddress knownLeader;
    private long knownLeaderSeq;
    private long knownLeaderHeard;
    private long ownLeaderSeq;
    private long version;

    /**
     * @param self     this node's coordinates (they change only if taken, see the class comment)
     * @param settings protocol settings
     * @param env      transport, local addresses, timers, randomness
     */
    public DtNode(DtAddress self, DtSettings settings, NodeEnvironment env) {
        super(env, MAX_PENDING_MESSAGES, DtTopology.stopped(Objects.requireNonNull(self, "self"), 0));
        this.self = self;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.env = env;
        this.buddyCache = new BuddyCache(settings.buddyCacheSize());
        this.fastNanos = TimeUnit.MILLISECONDS.toNanos(settings.fastHeartbeatMs());
        this.slowNanos = TimeUnit.MILLISECONDS.toNanos(settings.slowHeartbeatMs());
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.timeoutMs());
        this.leaderStaleNanos = LEADER_STALE_INTERVALS * TimeUnit.MILLISECONDS.toNanos(settings.iAmHereMs());
        List<SubstrateAddress> adv = new ArrayList<>();
        for (SubstrateAddress a : env.localAddresses()) {
            if (DtMessages.encodable(a) && adv.size() < DtMessages.MAX_ADDRESSES) {
                adv.add(a);
            }
        }
        if (adv.isEmpty()) {
            throw new IllegalArgumentException("no local substrate address fits a DT message (at most "
                    + DtMessages.MAX_ADDRESS_BYTES + " bytes): " + env.localAddresses());
        }
        this.advertised = List.copyOf(adv);
        this.ownLeaderSeq = env.random().nextInt() & 0x7FFF_FFFFL;
    }

    @Override
    public DtAddress localAddress() {
        return self;
    }

    /**
     * Why the node stopped by itself (its fixed coordinates are taken, or it found no free ones),
     * or {@code null} if it did not.
     */
    @Override
    public String failure() {
        return failure;
    }

    // ------------------------------------------------------------------------------------ lifecycle

    @Override
    protected void start() {
        if (running || left) {
            return;
        }
        running = true;
        unchangedTicks = 0;
        publish();
        scheduleHeartbeat((long) (env.random().nextDouble() * fastNanos));
        rendezvous();
    }

    @Override
    protected void stop() {
        left = true;
        if (!running) {
            return;
        }
        goodbyeToAll(self);
        running = false;
        cancel(heartbeatTimer);
        cancel(rendezvousTimer);
        table.clear();
        rtts.clear();
        candidates.clear();
        contacted.clear();
        publish(DtTopology.stopped(self, ++version), true);
    }

    private void fail(String reason) {
        LOG.error("{}: {}", self, reason);
        failure = reason;
        count(NodeEvent.FAILED);
        stop();
    }

    private void goodbyeToAll(DtAddress as) {
        ProtocolMessage bye = DtMessages.encode(new Goodbye(as));
        for (Neighbour n : table.values()) {
            send(n.substrate, bye, NodeEvent.GOODBYES_SENT);
        }
    }

    private static void cancel(TimerService.Timer t) {
        if (t != null) {
            t.cancel();
        }
    }

    // ------------------------------------------------------------------------------------ timers

    private void scheduleHeartbeat(long delayNanos) {
        cancel(heartbeatTimer);
        heartbeatDue = timers.nanoTime() + delayNanos;
        heartbeatTimer = timers.schedule(delayNanos, TimeUnit.NANOSECONDS, this::tick);
    }

    /** Something the trees depend on changed: count the stable period from now and beat fast. */
    private void markChanged() {
        unchangedTicks = 0;
        dirty = true;
        if (running && heartbeatDue - timers.nanoTime() > fastNanos) {
            scheduleHeartbeat(fastNanos);
        }
    }

    private void tick() {
        if (!running) {
            return;
        }
        long now = timers.nanoTime();
        expire(now);
        boolean pending = discover(now);
        rtts.retainOnly(table.keySet());
        for (Neighbour n : table.values()) {
            send(n.substrate, hello(true, n.address), NodeEvent.HELLO_NEIGHBOR_SENT);
        }
        // a node that knows a node passing its test that is not yet a neighbour is not settled,
        // even if the Hello to it was lost and nothing else changed
        unchangedTicks = pending ? 0 : unchangedTicks + 1;
        publish();
        scheduleHeartbeat(unchangedTicks < settings.stableAfterHeartbeats() ? fastNanos : slowNanos);
    }

    private void expire(long now) {
        for (Iterator<Neighbour> it = table.values().iterator(); it.hasNext(); ) {
            Neighbour n = it.next();
            if (now - n.lastHeard > timeoutNanos) {
                it.remove();
                rtts.forget(n.address);
                count(NodeEvent.NEIGHBOURS_TIMED_OUT);
                buddyCache.remember(n.substrate);
                LOG.debug("{}: neighbour {} timed out", self, n.address);
                markChanged();
            }
        }
        long recontact = RECONTACT_HEARTBEATS * fastNanos;
        contacted.values().removeIf(t -> now - t >= recontact);
        if (knownLeader != null && now - knownLeaderHeard > leaderStaleNanos) {
            knownLeader = null;
        }
    }

    /**
     * Sends one HelloNeighbor to the closest reported node that is not a neighbour and passes the
     * test, and was not contacted within the last few heartbeats.
     *
     * @return whether any reported node passes the test (contacted recently or not)
     */
    private boolean discover(long now) {
        long ttl = CANDIDATE_HEARTBEATS * fastNanos;
        Map<DtAddress, SubstrateAddress> pool = new LinkedHashMap<>();
        for (Iterator<Map.Entry<DtAddress, Candidate>> it = candidates.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<DtAddress, Candidate> e = it.next();
            DtAddress c = e.getKey();
            if (now - e.getValue().since() > ttl || table.containsKey(c) || !NeighbourTest.passes(self, table.keySet(), c)) {
                it.remove();
            } else {
                pool.put(c, e.getValue().substrate());
            }
        }
        for (Neighbour n : table.values()) {
            if (n.cw != null) {
                pool.putIfAbsent(n.cw.address(), n.cw.substrate());
            }
            if (n.ccw != null) {
                pool.putIfAbsent(n.ccw.address(), n.ccw.substrate());
            }
        }
        DtAddress best = null;
        boolean pending = false;
        for (DtAddress c : pool.keySet()) {
            if (c.equals(self) || table.containsKey(c) || !NeighbourTest.passes(self, table.keySet(), c)) {
                continue;
            }
            pending = true;
            if (!contacted.containsKey(c) && (best == null || closer(c, best))) {
                best = c;
            }
        }
        if (best != null) {
            send(pool.get(best), hello(true, best), NodeEvent.DISCOVERY_HELLO_SENT);
            remember(best, now);
        }
        return pending;
    }

    private boolean closer(DtAddress a, DtAddress b) {
        int d = Predicates.compareDistance(a, b, self);
        return d < 0 || (d == 0 && Predicates.compareLexicographic(a, b) < 0);
    }

    private void remember(DtAddress c, long now) {
        contacted.remove(c);
        contacted.put(c, now);
        if (contacted.size() > MAX_CONTACTED) {
            Iterator<DtAddress> it = contacted.keySet().iterator();
            it.next();
            it.remove();
        }
    }

    private void rendezvous() {
        if (!running) {
            return;
        }
        LinkedHashSet<SubstrateAddress> targets = new LinkedHashSet<>(settings.buddies());
        targets.addAll(buddyCache.addresses());
        targets.removeAll(env.localAddresses());
        for (Neighbour n : table.values()) {
            targets.remove(n.substrate);
        }
        List<SubstrateAddress> list = new ArrayList<>(targets);
        if (table.isEmpty()) {
            ProtocolMessage nn = DtMessages.encode(new NewNode(self, advertised, settings.newNodeHops(), false));
            for (SubstrateAddress a : list) {
                send(a, nn, NodeEvent.NEW_NODE_SENT);
            }
        } else if (Leader.isLeader(self, table.keySet())) {
            ownLeaderSeq++;
            ProtocolMessage announce = DtMessages.encode(new IAmLeader(self, ownLeaderSeq, settings.newNodeHops()));
            for (Neighbour n : table.values()) {
                send(n.substrate, announce, NodeEvent.I_AM_LEADER_SENT);
            }
            if (!list.isEmpty()) {
                send(list.get(Math.floorMod(rendezvousCursor++, list.size())),
                        DtMessages.encode(new NewNode(self, advertised, settings.newNodeHops(), true)), NodeEvent.NEW_NODE_SENT);
            }
        } else if (!list.isEmpty()) {
            send(list.get(Math.floorMod(rendezvousCursor++, list.size())),
                    DtMessages.encode(new IAmHere(self, advertised, currentLeader())), NodeEvent.I_AM_HERE_SENT);
        }
        rendezvousTimer = timers.schedule(settings.iAmHereMs(), TimeUnit.MILLISECONDS, this::rendezvous);
    }

    // ------------------------------------------------------------------------------------ messages

    @Override
    protected void handle(ProtocolMessage message, SubstrateAddress from) {
        if (!running) {
            count(NodeEvent.IGNORED_WHILE_STOPPED);
            return;
        }
        DtMessage m;
        try {
            m = DtMessages.decode(message);
        } catch (ProtocolBodyException e) {
            countMalformed(e.reason());
            LOG.debug("{}: dropped malformed protocol message from {}: {}", self, from, e.getMessage());
            return;
        }
        try {
            if (m instanceof Hello h) {
                onHello(h, from);
            } else if (m instanceof Goodbye g) {
                onGoodbye(g, from);
            } else if (m instanceof NewNode n) {
                count(NodeEvent.NEW_NODE_RECEIVED);
                routeNewNode(n.joiner(), n.addresses(), n.hopsLeft(), n.fromLeader());
            } else if (m instanceof IAmHere i) {
                onIAmHere(i);
            } else if (m instanceof IAmLeader l) {
                onIAmLeader(l, from);
            }
        } finally {
            publish();
        }
    }

    private void onHello(Hello h, SubstrateAddress from) {
        count(h.neighbour() ? NodeEvent.HELLO_NEIGHBOR_RECEIVED : NodeEvent.HELLO_NOT_NEIGHBOR_RECEIVED);
        SubstrateAddress sub = pick(h.addresses(), from);
        if (h.sender().equals(self)) {
            if (isMine(from) || isMine(h.addresses())) {
                count(NodeEvent.SELF_CONTACT);
                return;
            }
            if (!duplicateSeen(sub) && h.neighbour()) {
                NodeRef me = new NodeRef(self, advertised.get(0));
                send(sub, DtMessages.encode(new Hello(false, self, h.sender(), advertised, me, me, bareStamp())), NodeEvent.HELLO_NOT_NEIGHBOR_SENT);
            }
            return;
        }
        if (!h.receiver().equals(self)) {
            // meant for coordinates this node no longer has (it drew new ones): they are gone
            count(NodeEvent.HELLO_FOR_OTHER_ADDRESS);
            if (h.neighbour()) {
                send(sub, DtMessages.encode(new Goodbye(h.receiver())), NodeEvent.GOODBYES_SENT);
            }
            return;
        }
        if (reportsMyDuplicate(h.cw()) || reportsMyDuplicate(h.ccw())) {
            return;
        }
        long now = timers.nanoTime();
        Neighbour n = table.get(h.sender());
        if (n != null) {
            if (!n.substrate.equals(sub) && !h.addresses().contains(n.substrate)) {
                count(NodeEvent.DUPLICATE_ADDRESS);
                if (h.neighbour()) {
                    replyDuplicate(h.sender(), sub, new NodeRef(n.address, n.substrate));
                }
                return;
            }
            boolean changed = n.considersMe != h.neighbour() || !Objects.equals(n.cw, h.cw()) || !Objects.equals(n.ccw, h.ccw());
            n.considersMe = h.neighbour();
            n.cw = h.cw();
            n.ccw = h.ccw();
            if (h.neighbour()) {
                n.lastHeard = now;
            }
            receiveStamp(n.address, h.stamp());
            if (changed) {
                markChanged();
            }
            return;
        }
        if (!h.neighbour()) {
            offerCandidate(h.cw());
            offerCandidate(h.ccw());
            return;
        }
        if (NeighbourTest.passes(self, table.keySet(), h.sender()) && add(h.sender(), sub, h, now)) {
            receiveStamp(h.sender(), h.stamp());
            send(sub, hello(true, h.sender()), NodeEvent.HELLO_NEIGHBOR_SENT);
        } else {
            send(sub, hello(false, h.sender()), NodeEvent.HELLO_NOT_NEIGHBOR_SENT);
            offerCandidate(h.cw());
            offerCandidate(h.ccw());
        }
    }

    /**
     * Adds a node that passes the test and evicts the neighbours it makes fail.
     *
     * @return false if refused because the table would exceed its bound
     */
    private boolean add(DtAddress a, SubstrateAddress sub, Hello h, long now) {
        Set<DtAddress> all = new HashSet<>(table.keySet());
        all.add(a);
        Set<DtAddress> keep = NeighbourTest.localNeighbours(self, all);
        if (keep.size() > settings.maxNeighbours()) {
            count(NodeEvent.REFUSED_NEIGHBOURS);
            return false;
        }
        List<Neighbour> evicted = new ArrayList<>();
        for (Iterator<Neighbour> it = table.values().iterator(); it.hasNext(); ) {
            Neighbour old = it.next();
            if (!keep.contains(old.address)) {
                it.remove();
                rtts.forget(old.address);
                evicted.add(old);
            }
        }
        Neighbour n = new Neighbour(a, sub);
        n.lastHeard = now;
        n.considersMe = h.neighbour();
        n.cw = h.cw();
        n.ccw = h.ccw();
        table.put(a, n);
        candidates.remove(a);
        contacted.remove(a);
        count(NodeEvent.NEIGHBOURS_ADDED);
        for (Neighbour e : evicted) {
            count(NodeEvent.NEIGHBOURS_EVICTED);
            send(e.substrate, hello(false, e.address), NodeEvent.HELLO_NOT_NEIGHBOR_SENT);
        }
        markChanged();
        return true;
    }

    private void onGoodbye(Goodbye g, SubstrateAddress from) {
        count(NodeEvent.GOODBYES_RECEIVED);
        Neighbour n = table.get(g.sender());
        if (n == null) {
            return;
        }
        if (from != null && from.scheme() == n.substrate.scheme() && !from.equals(n.substrate)) {
            count(NodeEvent.GOODBYE_FROM_OTHER_ADDRESS);
            return;
        }
        table.remove(g.sender());
        rtts.forget(g.sender());
        count(NodeEvent.NEIGHBOURS_LEFT);
        remember(g.sender(), timers.nanoTime()); // stale reports may still name it for a moment
        markChanged();
    }

    /** Handles a NewNode for {@code joiner}: answer it if it passes here, else pass it on toward its coordinates. */
    private void routeNewNode(DtAddress joiner, List<SubstrateAddress> addresses, int hopsLeft, boolean fromLeader) {
        SubstrateAddress to = pickReachable(addresses);
        if (joiner.equals(self)) {
            if (isMine(addresses)) {
                count(NodeEvent.OWN_NEW_NODE);
                return;
            }
            count(NodeEvent.DUPLICATE_ADDRESS);
            NodeRef me = new NodeRef(self, advertised.get(0));
            send(to, DtMessages.encode(new Hello(false, self, joiner, advertised, me, me, bareStamp())), NodeEvent.HELLO_NOT_NEIGHBOR_SENT);
            return;
        }
        Neighbour n = table.get(joiner);
        if (n != null) {
            if (addresses.contains(n.substrate)) {
                count(NodeEvent.NEW_NODE_KNOWN);
            } else {
                count(NodeEvent.DUPLICATE_ADDRESS);
                replyDuplicate(joiner, to, new NodeRef(n.address, n.substrate));
            }
            return;
        }
        if (NeighbourTest.passes(self, table.keySet(), joiner)) {
            count(fromLeader ? NodeEvent.NEW_NODE_FROM_LEADER_ACCEPTED : NodeEvent.NEW_NODE_ACCEPTED);
            send(to, hello(true, joiner), NodeEvent.HELLO_NEIGHBOR_SENT);
            return;
        }
        DtAddress next = DtTopology.towardPoint(self, table.keySet(), joiner);
        if (next == null) {
            count(NodeEvent.NEW_NODE_DEAD_END);
            return;
        }
        // tell the joiner which of this node's neighbours lie toward it: if the NewNode is lost
        // further on, the joiner walks on from the closest of these by direct Hellos
        send(to, hello(false, joiner), NodeEvent.NEW_NODE_HINT_SENT);
        if (hopsLeft == 0) {
            count(NodeEvent.NEW_NODE_HOP_LIMIT);
            return;
        }
        send(table.get(next).substrate, DtMessages.encode(new NewNode(joiner, addresses, hopsLeft - 1, fromLeader)),
                NodeEvent.NEW_NODE_FORWARDED);
    }

    private void onIAmHere(IAmHere i) {
        count(NodeEvent.I_AM_HERE_RECEIVED);
        if (i.sender().equals(self) && isMine(i.addresses())) {
            count(NodeEvent.SELF_CONTACT);
            return;
        }
        DtAddress mine = currentLeader();
        if (table.isEmpty() || mine == null || i.leader() == null || !i.leader().equals(mine)) {
            count(NodeEvent.I_AM_HERE_OTHER_PARTITION);
            routeNewNode(i.sender(), i.addresses(), settings.newNodeHops(), false);
        } else {
            count(NodeEvent.I_AM_HERE_SAME_PARTITION);
        }
    }

    private void onIAmLeader(IAmLeader l, SubstrateAddress from) {
        count(NodeEvent.I_AM_LEADER_RECEIVED);
        if (l.leader().equals(self)) {
            return;
        }
        long now = timers.nanoTime();
        boolean fresh = knownLeader != null && now - knownLeaderHeard <= leaderStaleNanos;
        boolean accept;
        if (fresh && knownLeader.equals(l.leader())) {
            accept = l.sequence() > knownLeaderSeq;
        } else {
            accept = !fresh || Predicates.compareLexicographic(l.leader(), knownLeader) > 0;
        }
        if (!accept) {
            count(NodeEvent.I_AM_LEADER_IGNORED);
            return;
        }
        knownLeader = l.leader();
        knownLeaderSeq = l.sequence();
        knownLeaderHeard = now;
        if (l.hopsLeft() > 0) {
            // a flood, not the tree: each node hears it from several neighbours, so a lossy path
            // does not leave whole subtrees without a leader
            ProtocolMessage on = DtMessages.encode(new IAmLeader(l.leader(), l.sequence(), l.hopsLeft() - 1));
            for (Neighbour n : table.values()) {
                if (!n.substrate.equals(from)) {
                    send(n.substrate, on, NodeEvent.I_AM_LEADER_FORWARDED);
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------ duplicates

    private boolean reportsMyDuplicate(NodeRef r) {
        return r != null && r.address().equals(self) && !isMine(r.substrate()) && duplicateSeen(r.substrate());
    }

    /**
     * Another node at {@code holder} has this node's coordinates. A node that is not settled in
     * an overlay — never yet stable, or joining again after it lost every neighbour — gives way: new coordinates, or
     * failure if they are fixed. A settled node keeps them; the newcomer is told.
     *
     * @return true if this node gave way (its coordinates or state changed)
     */
    private boolean duplicateSeen(SubstrateAddress holder) {
        count(NodeEvent.DUPLICATE_ADDRESS);
        if (everStable && topology().state() != NodeState.JOINING) {
            return false;
        }
        if (settings.redrawFrame() == null) {
            fail("logical address " + self + " is already taken by the node at " + holder
                    + "; configure other coordinates (or address RANDOM)");
            return true;
        }
        if (redraws >= settings.maxRedraws()) {
            fail("logical address " + self + " is taken by the node at " + holder + ", and " + redraws
                    + " coordinates drawn before were taken too; widen the address frame");
            return true;
        }
        redraw(holder);
        return true;
    }

    private void redraw(SubstrateAddress holder) {
        redraws++;
        DtAddress old = self;
        goodbyeToAll(old);
        table.clear();
        rtts.clear();
        candidates.clear();
        contacted.clear();
        knownLeader = null;
        DtSettings.Frame f = settings.redrawFrame();
        DtAddress next = old;
        for (int i = 0; i < 64 && next.equals(old); i++) {
            next = new DtAddress((int) env.random().nextLong(f.minX(), (long) f.maxX() + 1),
                    (int) env.random().nextLong(f.minY(), (long) f.maxY() + 1));
        }
        self = next;
        count(NodeEvent.ADDRESS_REDRAWN);
        LOG.info("{}: coordinates taken by the node at {}; joining again as {}", old, holder, next);
        markChanged();
        publish();
        cancel(rendezvousTimer);
        rendezvous();
    }

    private void replyDuplicate(DtAddress to, SubstrateAddress toSub, NodeRef holder) {
        send(toSub, DtMessages.encode(new Hello(false, self, to, advertised, holder, holder, bareStamp())), NodeEvent.HELLO_NOT_NEIGHBOR_SENT);
    }

    // ------------------------------------------------------------------------------------ helpers

    /**
     * A Hello from this node to {@code to}: a HelloNeighbor reports this node's neighbours
     * clockwise and counter-clockwise of {@code to}; a HelloNotNeighbor reports the neighbour
     * blocking {@code to} as both, or else the same pair. Either carries this node's timestamp
     * and, to a neighbour, the echo of its last one ({@link io.statecast.overlay.node.RttTable}).
     */
    private ProtocolMessage hello(boolean neighbour, DtAddress to) {
        Set<DtAddress> ns = table.keySet();
        NodeRef cw;
        NodeRef ccw;
        Optional<DtAddress> blocker = neighbour ? Optional.empty() : NeighbourTest.blocker(self, ns, to);
        if (blocker.isPresent()) {
            cw = ref(blocker.get());
            ccw = cw;
        } else {
            cw = AngularOrder.cw(self, ns, to).map(this::ref).orElse(null);
            ccw = AngularOrder.ccw(self, ns, to).map(this::ref).orElse(null);
        }
        return DtMessages.encode(new Hello(neighbour, self, to, advertised, cw, ccw, stampFor(to)));
    }

    private NodeRef ref(DtAddress a) {
        return new NodeRef(a, table.get(a).substrate);
    }

    /** Keeps a node a stranger reported, to try in discovery (the closest {@value #MAX_CANDIDATES} are kept). */
    private void offerCandidate(NodeRef r) {
        if (r == null || r.address().equals(self) || table.containsKey(r.address())) {
            return;
        }
        candidates.put(r.address(), new Candidate(r.substrate(), timers.nanoTime()));
        if (candidates.size() > MAX_CANDIDATES) {
            DtAddress farthest = null;
            for (DtAddress c : candidates.keySet()) {
                if (farthest == null || closer(farthest, c)) {
                    farthest = c;
                }
            }
            candidates.remove(farthest);
        }
    }

    private DtAddress currentLeader() {
        if (!running) {
            return null;
        }
        if (Leader.isLeader(self, table.keySet())) {
            return self;
        }
        return knownLeader != null && timers.nanoTime() - knownLeaderHeard <= leaderStaleNanos ? knownLeader : null;
    }

    private boolean isMine(SubstrateAddress a) {
        return a != null && env.localAddresses().contains(a);
    }

    private boolean isMine(List<SubstrateAddress> as) {
        for (SubstrateAddress a : as) {
            if (isMine(a)) {
                return true;
            }
        }
        return false;
    }

    /** The advertised address on the scheme the message came in on, else the sender address itself. */
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

    /** The first advertised address on a scheme this node has an interface for, else the first. */
    private SubstrateAddress pickReachable(List<SubstrateAddress> addresses) {
        for (SubstrateAddress a : addresses) {
            for (SubstrateAddress mine : env.localAddresses()) {
                if (mine.scheme() == a.scheme()) {
                    return a;
                }
            }
        }
        return addresses.get(0);
    }

    // ------------------------------------------------------------------------------------ publication

    private void publish() {
        if (!running) {
            return;
        }
        NodeState state;
        if (table.isEmpty()) {
            state = settings.buddies().isEmpty() && buddyCache.isEmpty() ? NodeState.STABLE : NodeState.JOINING;
        } else {
            state = unchangedTicks >= settings.stableAfterHeartbeats() ? NodeState.STABLE : NodeState.INCOMPLETE;
        }
        DtTopology old = topology();
        DtAddress leader = currentLeader();
        if (!dirty && state == old.state() && Objects.equals(leader, old.partitionLeader()) && self.equals(old.self())) {
            return;
        }
        dirty = false;
        Map<DtAddress, DtTopology.Report> reports = new LinkedHashMap<>();
        for (Neighbour n : table.values()) {
            reports.put(n.address, new DtTopology.Report(n.substrate, n.cw == null ? null : n.cw.address(),
                    n.ccw == null ? null : n.ccw.address(), n.considersMe));
        }
        DtTopology view = new DtTopology(self, state, version + 1, leader, reports);
        if (view.sameView(old)) {
            return;
        }
        version++;
        if (state == NodeState.STABLE) {
            everStable = true;
        }
        publish(view, true);
    }

    /** A node a stranger reported, and when. */
    private record Candidate(SubstrateAddress substrate, long since) {
    }

    /** A neighbour and what it last reported. Protocol thread only. */
    private static final class Neighbour {
        final DtAddress address;
        final SubstrateAddress substrate;
        long lastHeard;
        NodeRef cw;
        NodeRef ccw;
        boolean considersMe;

        Neighbour(DtAddress address, SubstrateAddress substrate) {
            this.address = address;
            this.substrate = substrate;
        }
    }

    @Override
    public String toString() {
        return "DtNode" + topology();
    }
}
