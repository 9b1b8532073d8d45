package io.statecast.services.testing;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.deploy.ServiceLoadException;
import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.event.QueryLimits;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.FaultModel;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.MemNetworkConfig;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * An in-memory overlay of N whole nodes — {@link OverlaySocket} (codec, adapter, overlay node,
 * forwarding engine) plus a {@link MessageStore} — for testing the shipped services under loss.
 *
 * <h2>How it runs</h2>
 * Everything runs on one {@link VirtualTimerService} on the test's thread: the {@link MemNetwork}
 * delivers frames as clock tasks, the overlay nodes run their protocols on it, and every store is
 * configured with {@link MessageStoreConfig.Threading#CLOCK}, so its shards are clock tasks too
 * (the approach of the messagestore's {@code StoreOverSocketsTest}). No real thread does any of
 * the work, so a seed reproduces a run exactly, and virtual seconds of protocol cost only the CPU
 * they use. (A store's warm start, when it installs a spec, does use a worker thread; it is over
 * before the cluster returns from {@link Builder#build()}; its wall-clock bounds, and those on
 * loading a spec, are raised to a minute so that a loaded machine does not fail a test on speed.)
 * Tests therefore never sleep: they {@link #await} a condition on the virtual clock with a virtual
 * deadline.
 *
 * <h2>Shapes</h2>
 * <ul>
 *   <li>{@link #chain(int)}: tree-overlay nodes with ids 1…N, node i knowing only node i−1, so the
 *       only links are i—(i+1) and every embedded tree is the chain (the blueprint's testbed of
 *       §6.1: a five-hop path for N = 6). Node 0 of the cluster is id 1, one end of the chain.</li>
 *   <li>{@link #dt(int)}: a Delaunay overlay of N nodes at distinct random points, each joining
 *       through up to three earlier nodes.</li>
 * </ul>
 * {@link Builder#build()} joins every node without faults and waits until the overlay has
 * settled: every node {@code STABLE} and, for <em>every</em> node as root, the tree the nodes'
 * {@code parent}/{@code children} views describe spans all N nodes consistently (and for DT, every
 * neighbour relation is mutual). Faults are set afterwards ({@link #faultsEverywhere},
 * {@link #faultsOnLink}, {@link #blackhole}); they apply to the overlay protocol too.
 *
 * <h2>What is recorded</h2>
 * A recorder between each engine and its store ({@code StoreRecorder}) writes down every
 * application delivery ({@link #deliveries(int)}) and, unless {@link Builder#trace(boolean)} is
 * off, every message handed to the store and every message the store sent or forwarded
 * ({@link #trace(int)}), with the virtual time. Services are loaded from the test classpath as
 * {@code services/NAME.scxml} — the specs the module ships — parsed once and installed in every
 * store.
 *
 * <h2>Seeds</h2>
 * {@link #seed()} seeds the fault model, the points and buddies, and every socket's randomness;
 * {@link #seedFromProperty()} reads {@code -Dstatecast.seed=} (else a fresh one). Put
 * {@link #describe()} (which starts with the seed) in every assertion message.
 */
public final class SimCluster implements AutoCloseable {

    /** Which way a {@link Traced} message crossed the store's boundary. */
    public enum Direction {
        /** Handed to the store (received from the network, or sent by the local application). */
        IN,
        /** Sent by the store ({@code sendDataMessage}/{@code sendControlMessage}). */
        OUT,
        /** Forwarded by the store ({@code forwardMessage}). */
        FORWARD
    }

    /**
     * A message that crossed a store's boundary.
     *
     * @param atNanos     virtual time
     * @param direction   in, out or forwarded
     * @param messageType the FSM extension's type ({@link FsmExtension#PAYLOAD_TYPE} for data)
     * @param messageId   the FSM extension's MessageID
     * @param mode        delivery mode
     * @param peer        IN: the previous hop; OUT/FORWARD: the unicast destination, or the
     *                    explicit tree root of a multicast ({@code null} when the tree is the
     *                    sender's own)
     * @param source      the message's source (IN, FORWARD) or this node (OUT)
     */
    public record Traced(long atNanos, Direction direction, byte messageType, long messageId, DeliveryMode mode,
            LogicalAddress peer, LogicalAddress source) {
    }

    /**
     * A message the application received.
     *
     * @param atNanos       virtual time
     * @param source        the message's source address
     * @param messageId     its MessageID ({@code 0} if it had no FSM extension)
     * @param messageType   its FSM type ({@link FsmExtension#PAYLOAD_TYPE} for data)
     * @param payloadLength payload bytes ({@code -1} without payload)
     * @param payloadHash   {@link java.util.Arrays#hashCode(byte[])} of the payload
     * @param fields        the message's fields (a service's marks, such as how it was recovered)
     */
    public record Delivery(long atNanos, LogicalAddress source, long messageId, byte messageType, int payloadLength,
            int payloadHash, io.statecast.overlay.message.MessageFields fields) {
        static Delivery of(long at, OverlayMessage m) {
            FsmExtension f = m.fsm();
            byte[] p = m.payload();
            return new Delivery(at, m.source(), f == null ? 0 : f.messageId(),
                    f == null ? FsmExtension.PAYLOAD_TYPE : f.messageType(), p == null ? -1 : p.length,
                    StoreRecorder.hash(p), m.fields());
        }
    }

    private final long seed;
    private final VirtualTimerService clock;
    private final MemNetwork net;
    private final List<OverlaySocket> sockets;
    private final List<StoreRecorder> recorders;
    private final List<MessageStore> stores;
    private final Map<String, ServiceSpec> specs;
    private final Map<LogicalAddress, Integer> index = new HashMap<>();
    private final SpecLoader loader;

    private SimCluster(long seed, VirtualTimerService clock, MemNetwork net, SpecLoader loader, List<OverlaySocket> sockets,
            List<StoreRecorder> recorders, List<MessageStore> stores, Map<String, ServiceSpec> specs) {
        this.seed = seed;
        this.loader = loader;
        this.clock = clock;
        this.net = net;
        this.sockets = sockets;
        this.recorders = recorders;
        this.stores = stores;
        this.specs = specs;
    }

    /** {@code -Dstatecast.seed=…} if set, else a fresh seed. */
    public static long seedFromProperty() {
        return Long.getLong("statecast.seed", System.nanoTime());
    }

    /** A chain of {@code n} ≥ 2 tree-overlay nodes (see the class comment). */
    public static Builder chain(int n) {
        return new Builder(NodeType.TREE, n);
    }

    /** A Delaunay overlay of {@code n} ≥ 2 nodes at random points (see the class comment). */
    public static Builder dt(int n) {
        return new Builder(NodeType.DT, n);
    }

    /** Builds a {@link SimCluster}. */
    public static final class Builder {
        /** Wall-clock bound on loading, compiling and warming a spec in the cluster's stores. */
        static final Duration LOAD_BOUND = Duration.ofSeconds(60);
        private final NodeType type;
        private final int n;
        private long seed = seedFromProperty();
        private final Map<String, Map<String, String>> services = new LinkedHashMap<>();
        private UnaryOperator<MessageStoreConfig> storeConfig = UnaryOperator.identity();
        private UnaryOperator<OverlayConfig> overlayConfig = UnaryOperator.identity();
        private Duration joinWithin = Duration.ofMinutes(5);
        private boolean trace = true;
        private boolean keepPayloads;

        private Builder(NodeType type, int n) {
            if (n < 2) {
                throw new IllegalArgumentException("a cluster needs at least 2 nodes, got " + n);
            }
            this.type = type;
            this.n = n;
        }

        /** The seed (default: {@link #seedFromProperty()}). */
        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        /** Loads {@code services/NAME.scxml} from the classpath into every store, with its defaults. */
        public Builder service(String name) {
            return service(name, Map.of());
        }

        /** As {@link #service(String)} with some parameters overridden. */
        public Builder service(String name, Map<String, String> parameters) {
            services.put(name, Map.copyOf(parameters));
            return this;
        }

        /**
         * Adjusts each store's configuration (default: {@link MessageStoreConfig#defaults()} with one
         * shard, clock threading and {@link #LOAD_BOUND} on loading; keep the clock threading).
         */
        public Builder storeConfig(UnaryOperator<MessageStoreConfig> adjust) {
            this.storeConfig = Objects.requireNonNull(adjust, "adjust");
            return this;
        }

        /**
         * Adjusts each node's overlay configuration after the cluster set id, address, interface
         * and buddies (e.g. the forwarding engine's flood cache); keep those four.
         */
        public Builder overlayConfig(UnaryOperator<OverlayConfig> adjust) {
            this.overlayConfig = Objects.requireNonNull(adjust, "adjust");
            return this;
        }

        /** Virtual time the overlay may take to settle (default 5 minutes). */
        public Builder joinWithin(Duration d) {
            this.joinWithin = Objects.requireNonNull(d, "d");
            return this;
        }

        /** Whether to record every message crossing each store ({@link #trace(int)}); default on. */
        public Builder trace(boolean on) {
            this.trace = on;
            return this;
        }

        /** Whether to keep every delivered payload ({@link #payloads(int)}); default off (memory). */
        public Builder keepPayloads(boolean on) {
            this.keepPayloads = on;
            return this;
        }

        /**
         * Creates the nodes, loads the services, joins and waits until the overlay settled.
         *
         * @throws AssertionError if it does not settle within {@link #joinWithin}; the message
         *                        has the seed
         */
        public SimCluster build() throws SpecException, ServiceLoadException, IOException {
            VirtualTimerService clock = new VirtualTimerService();
            MemNetwork net = new MemNetwork(clock, new FaultModel(seed), MemNetworkConfig.defaults());
            Random random = new Random(seed);
            MessageStoreConfig msc = storeConfig.apply(baseStoreConfig());
            Map<String, ServiceSpec> loaded = new LinkedHashMap<>();
            SpecLoader loader = new SpecLoader(msc.specLimits());
            SimCluster cluster = null;
            try {
                for (Map.Entry<String, Map<String, String>> e : services.entrySet()) {
                    ServiceSpec spec = loader.load(readSpec(e.getKey()), "classpath:services/" + e.getKey() + ".scxml");
                    loaded.put(e.getKey(), e.getValue().isEmpty() ? spec : spec.withParameters(e.getValue()));
                }
                List<OverlaySocket> sockets = new ArrayList<>();
                List<StoreRecorder> recorders = new ArrayList<>();
                List<MessageStore> stores = new ArrayList<>();
                List<String> points = type == NodeType.DT ? points(random) : null;
                for (int i = 0; i < n; i++) {
                    MessageStore store = new MessageStore(msc, loader, SpecResolver.defaults());
                    for (ServiceSpec spec : loaded.values()) {
                        store.install(spec);
                    }
                    StoreRecorder rec = new StoreRecorder(store, trace, keepPayloads);
                    String name = "n" + i;
                    OverlayConfig c = overlayConfig.apply(OverlayConfig.defaults("statecast-services-sim", type)
                            .withAddress(type == NodeType.DT ? points.get(i) : Long.toString(i + 1))
                            .withInterfaces(List.of(SubstrateAddress.mem(name)))
                            .withBuddies(buddies(i, random)));
                    OverlaySocket s;
                    try {
                        s = OverlaySocket.builder(c).interfaces(List.of(net.newInterface(name))).timers(clock)
                                .random(new SplittableRandom(random.nextLong())).messageStore(rec).build();
                    } catch (io.statecast.overlay.socket.OverlayConfigException e) {
                        throw new IllegalArgumentException("cluster configuration: " + e.getMessage(), e);
                    }
                    rec.attach(s);
                    sockets.add(s);
                    recorders.add(rec);
                    stores.add(store);
                }
                cluster = new SimCluster(seed, clock, net, loader, sockets, recorders, stores, loaded);
                cluster.joinAndSettle(joinWithin);
                return cluster;
            } catch (RuntimeException | Error | SpecException | ServiceLoadException | IOException e) {
                if (cluster != null) {
                    cluster.close();
                } else {
                    loader.close();
                }
                throw e;
            }
        }

        /**
         * The defaults with one shard, clock threading, and the wall-clock bounds on loading a spec
         * (load, query compilation, warm start; 5 s each by default) raised to
         * {@link #LOAD_BOUND}: a cold JVM on a loaded two-core machine must not fail a test on
         * speed. The run-time evaluation limit is CPU time and stays as it is.
         */
        private static MessageStoreConfig baseStoreConfig() {
            MessageStoreConfig d = MessageStoreConfig.defaults();
            SpecLimits l = d.specLimits();
            QueryLimits q = l.queries();
            SpecLimits relaxed = new SpecLimits(l.maxBytes(), l.maxElements(), l.maxDepth(), LOAD_BOUND,
                    new QueryLimits(q.maxQueryChars(), q.maxNestingDepth(), q.maxRangeSize(), LOAD_BOUND,
                            q.evaluationTimeout(), q.workerStackBytes()));
            return new MessageStoreConfig(1, MessageStoreConfig.Threading.CLOCK, d.dataQueueCapacity(),
                    d.controlQueueCapacity(), d.instances(), d.unknownServiceMessages(), d.unknownServiceHold(),
                    relaxed, d.warmStart(), LOAD_BOUND);
        }

        private List<SubstrateAddress> buddies(int i, Random random) {
            if (i == 0) {
                return List.of();
            }
            if (type == NodeType.TREE) {
                return List.of(SubstrateAddress.mem("n" + (i - 1)));
            }
            Set<SubstrateAddress> b = new LinkedHashSet<>();
            while (b.size() < Math.min(3, i)) {
                b.add(SubstrateAddress.mem("n" + random.nextInt(i)));
            }
            return List.copyOf(b);
        }

        private List<String> points(Random random) {
            Set<String> p = new LinkedHashSet<>();
            while (p.size() < n) {
                p.add(random.nextInt(10_000) + "," + random.nextInt(10_000));
            }
            return List.copyOf(p);
        }
    }

    /** The bytes of {@code services/NAME.scxml} on the classpath. */
    public static byte[] readSpec(String name) throws IOException {
        String path = "services/" + name + ".scxml";
        try (InputStream in = SimCluster.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("no " + path + " on the classpath");
            }
            return in.readAllBytes();
        }
    }

    private void joinAndSettle(Duration within) {
        for (OverlaySocket s : sockets) {
            s.joinAsync();
            clock.advanceBy(Duration.ofMillis(10));
        }
        await(this::settled, within, () -> "the overlay to settle");
        for (int i = 0; i < sockets.size(); i++) {
            index.put(sockets.get(i).localAddress(), i);
        }
    }

    /**
     * Whether every node is STABLE and every node's tree (as the nodes' views describe it) spans
     * the whole overlay; for DT also that every neighbour relation is mutual and known to be.
     */
    public boolean settled() {
        Map<LogicalAddress, Topology> views = new HashMap<>();
        for (OverlaySocket s : sockets) {
            Topology t = s.topology();
            if (t.state() != NodeState.STABLE) {
                return false;
            }
            views.put(t.self(), t);
        }
        if (views.size() != sockets.size()) {
            return false;
        }
        for (Topology t : views.values()) {
            if (t instanceof io.statecast.overlay.node.dt.DtTopology dt) {
                for (Map.Entry<DtAddress, io.statecast.overlay.node.dt.DtTopology.Report> e : dt.reports().entrySet()) {
                    Topology other = views.get(e.getKey());
                    if (other == null || !e.getValue().considersMe()
                            || !((io.statecast.overlay.node.dt.DtTopology) other).reports().containsKey(dt.self())) {
                        return false;
                    }
                }
            }
        }
        for (LogicalAddress root : views.keySet()) {
            if (treeSize(views, root) != views.size()) {
                return false;
            }
        }
        return true;
    }

    /** Nodes reached from {@code root} along children whose parent view agrees; -1 on a cycle. */
    private static int treeSize(Map<LogicalAddress, Topology> views, LogicalAddress root) {
        Set<LogicalAddress> seen = new HashSet<>();
        ArrayDeque<LogicalAddress> todo = new ArrayDeque<>();
        todo.add(root);
        seen.add(root);
        if (views.get(root).parent(root) != null) {
            return -1;
        }
        while (!todo.isEmpty()) {
            LogicalAddress a = todo.poll();
            for (LogicalAddress c : views.get(a).children(root)) {
                Topology ct = views.get(c);
                if (ct == null || !a.equals(ct.parent(root)) || !seen.add(c)) {
                    return -1;
                }
                todo.add(c);
            }
        }
        return seen.size();
    }

    // ------------------------------------------------------------------ the nodes

    /** The seed of this cluster. */
    public long seed() {
        return seed;
    }

    /** The virtual clock everything runs on. */
    public VirtualTimerService clock() {
        return clock;
    }

    /** Number of nodes. */
    public int size() {
        return sockets.size();
    }

    /** Node {@code i}'s socket (send with it, read its topology). */
    public OverlaySocket socket(int i) {
        return sockets.get(i);
    }

    /** Node {@code i}'s logical address. */
    public LogicalAddress address(int i) {
        return sockets.get(i).localAddress();
    }

    /** The node index of {@code address}, or -1. */
    public int indexOf(LogicalAddress address) {
        return index.getOrDefault(address, -1);
    }

    /** Node {@code i}'s MessageStore. */
    public MessageStore store(int i) {
        return stores.get(i);
    }

    /** The loaded spec {@code name} (as installed, with overrides). */
    public ServiceSpec spec(String name) {
        ServiceSpec s = specs.get(name);
        if (s == null) {
            throw new IllegalArgumentException("service " + name + " was not loaded; loaded: " + specs.keySet());
        }
        return s;
    }

    /**
     * Node indices of the tree rooted at node {@code root}, each with its children, as the nodes
     * see it now (index → children's indices).
     */
    public Map<Integer, List<Integer>> tree(int root) {
        LogicalAddress r = address(root);
        Map<Integer, List<Integer>> out = new LinkedHashMap<>();
        for (int i = 0; i < size(); i++) {
            List<Integer> c = new ArrayList<>();
            for (LogicalAddress a : sockets.get(i).topology().children(r)) {
                c.add(indexOf(a));
            }
            out.put(i, List.copyOf(c));
        }
        return out;
    }

    // ------------------------------------------------------------------ faults

    /** The fault model (seeded with {@link #seed()}). */
    public FaultModel faults() {
        return net.faults();
    }

    /** Applies {@code config} to every link without its own setting. */
    public void faultsEverywhere(FaultConfig config) {
        net.faults().configure(config);
    }

    /** Applies {@code config} to the link between nodes {@code a} and {@code b}, both directions. */
    public void faultsOnLink(int a, int b, FaultConfig config) {
        SubstrateAddress x = SubstrateAddress.mem("n" + a);
        SubstrateAddress y = SubstrateAddress.mem("n" + b);
        net.faults().configureLink(x, y, config);
        net.faults().configureLink(y, x, config);
    }

    /** Drops every frame to and from node {@code i} from now on. */
    public void blackhole(int i) {
        net.faults().blackholeNode(SubstrateAddress.mem("n" + i));
    }

    // ------------------------------------------------------------------ observations

    /** What node {@code i}'s application received so far, in order (live view; clock thread only). */
    public List<Delivery> deliveries(int i) {
        return Collections.unmodifiableList(recorders.get(i).deliveries());
    }

    /**
     * The payloads node {@code i}'s application received, parallel to {@link #deliveries(int)};
     * empty unless {@link Builder#keepPayloads(boolean)} is on.
     */
    public List<byte[]> payloads(int i) {
        return Collections.unmodifiableList(recorders.get(i).payloads());
    }

    /** Every message that crossed node {@code i}'s store so far, in order (empty if tracing is off). */
    public List<Traced> trace(int i) {
        return Collections.unmodifiableList(recorders.get(i).traced());
    }

    /** Node {@code i}'s store metrics now. */
    public MessageStoreMetrics metrics(int i) {
        return stores.get(i).metrics();
    }

    /** Live service instances at node {@code i}. */
    public int liveInstances(int i) {
        return stores.get(i).metrics().node().liveInstances();
    }

    /** Live service instances on all nodes. */
    public int liveInstances() {
        int n = 0;
        for (int i = 0; i < size(); i++) {
            n += liveInstances(i);
        }
        return n;
    }

    // ------------------------------------------------------------------ time

    /** Advances the virtual clock by {@code d}, running everything due. */
    public void advance(Duration d) {
        clock.advanceBy(d);
    }

    /**
     * Runs the clock until {@code condition} holds, checking it every virtual 10 ms (cheap for
     * conditions that scan every node), for at most {@code within} of virtual time.
     *
     * @return whether it holds
     */
    public boolean runUntil(BooleanSupplier condition, Duration within) {
        long step = TimeUnit.MILLISECONDS.toNanos(10);
        long deadline = clock.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            long now = clock.nanoTime();
            if (now >= deadline) {
                return false;
            }
            clock.advanceBy(Math.min(step, deadline - now), TimeUnit.NANOSECONDS);
        }
        return true;
    }

    /**
     * As {@link #runUntil} but fails when the deadline passes.
     *
     * @throws AssertionError naming {@code what}, with {@link #describe()} (and so the seed)
     */
    public void await(BooleanSupplier condition, Duration within, Supplier<String> what) {
        if (!runUntil(condition, within)) {
            throw new AssertionError("timed out after " + within + " of virtual time waiting for " + what.get()
                    + "\n" + describe());
        }
        if (clock.taskFailures() > 0) {
            throw new AssertionError("a clock task failed: " + clock.lastFailure() + "\n" + describe(), clock.lastFailure());
        }
    }

    /**
     * The seed (and how to rerun with it), the virtual time, and one line per node: address,
     * state, live instances, drops. For failure messages.
     */
    public String describe() {
        StringBuilder b = new StringBuilder("seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + ") t="
                + TimeUnit.NANOSECONDS.toMillis(clock.nanoTime()) + "ms\n");
        int shown = 0;
        for (int i = 0; i < size() && shown < 60; i++, shown++) {
            OverlaySocket s = sockets.get(i);
            MessageStoreMetrics m = stores.get(i).metrics();
            b.append("  n").append(i).append(' ').append(s.localAddress()).append(' ').append(s.state())
                    .append(" live=").append(m.node().liveInstances()).append(" created=").append(m.node().created())
                    .append(" drops=").append(nonZero(m.node().drops())).append(" delivered=")
                    .append(recorders.get(i).deliveries().size()).append('\n');
        }
        return b.toString();
    }

    private static Map<Object, Long> nonZero(Map<?, Long> counts) {
        Map<Object, Long> out = new LinkedHashMap<>();
        counts.forEach((k, v) -> {
            if (v != 0) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** Closes every socket and store, then lets frames in flight drain. */
    @Override
    public void close() {
        for (OverlaySocket s : sockets) {
            s.close();
        }
        clock.runUntilIdle(1_000_000);
        loader.close();
    }
}
