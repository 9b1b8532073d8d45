package io.statecast.examples.bench;

import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.Origin;
import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.SendBudget;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.instance.StandaloneEnvironment;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.TimerService;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Cost of running the blueprint's hop-to-hop service (the reconstructed
 * {@code blueprint-h2h.scxml}) in the MessageStore runtime, on one thread, with a 1 KB payload.
 * Node 1 is the source; node 2 is its only child in the tree rooted at 1.
 *
 * <ul>
 *   <li>{@code relayedMessage}: one message relayed over one hop, as the blueprint measured it —
 *       the sender's new instance takes the payload from its application (ACK to itself,
 *       toApplication, updateNodeInfo, two timers), the receiver's new instance takes the copy
 *       (ACK to the sender, toApplication, updateNodeInfo, two timers), and the ACK reaches the
 *       sender's instance, whose composite event (the blueprint's XQuery over the history: every
 *       child acknowledged) fires and moves it to done (two cancelTimer, one setTimer). Both
 *       instances are then disposed. Three events, two instances, one composite evaluation
 *       (Saxon for the blueprint's listing, compiled Java for h2h-ack and its variant), 13
 *       primitives.</li>
 *   <li>{@code event}: one message into a live instance (state done, an ACK request: re-ACK).</li>
 *   <li>{@code newInstance}: create, start (entry action setTimer) and dispose an instance.</li>
 *   <li>{@code relayedThroughStores}: as relayedMessage, but through two whole
 *       {@link MessageStore}s (queues, shards, instance store, tombstones, metrics) on clock
 *       threading, wired to each other; the virtual clock moves 1 ms per message and the timers
 *       are short so instances end (their timer events included). Clock threading has no
 *       watchdog, so it reads the thread's CPU time around the composite evaluation (two reads of
 *       about a microsecond each on this machine); dedicated shard threads do not.</li>
 * </ul>
 *
 * Run with {@code bin/statecast bench MessageStore --prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MessageStoreBenchmark {

    private static final int SERVICE = 1;
    private static final LogicalAddress SOURCE = new TreeAddress(1);
    private static final LogicalAddress CHILD = new TreeAddress(2);
    /** The live instance of {@code event} takes millions of events; the rate bound would throttle it. */
    private static final InstanceLimits UNTHROTTLED = InstanceLimits.DEFAULTS.withPrimitiveRate(1_000_000, 1e12);

    /** {@link #spec} for the shipped h2h-ack respelled by {@link SpecVariant}. */
    public static final String H2H_VARIANT = "h2h-ack-variant.scxml";

    /**
     * The hop-to-hop spec: the blueprint's reconstructed listing (its composite query builds
     * {@code <out>} elements, evaluated by Saxon), the shipped {@code h2h-ack} (whose query and
     * action XPaths the runtime compiles to Java, {@code CompiledExpression}), or {@link #H2H_VARIANT}:
     * the shipped file with other event and variable names, comments and spacing, which must run
     * as fast as the shipped one.
     */
    @Param({"blueprint-h2h.scxml", "h2h-ack.scxml", H2H_VARIANT})
    public String spec;

    private SpecLoader loader;
    private ServiceRuntime runtime;
    private Node sender;
    private Node receiver;
    private byte[] payload;
    private long nextId;
    private ServiceInstance live;
    private OverlayMessage ackRequest;

    private Wired wired;

    /** Loads the spec and prepares both nodes. */
    @Setup(Level.Trial)
    public void setUp() throws SpecException {
        // a fresh JVM on a loaded machine can take longer than the default 5 s to parse and compile
        SpecLimits d = SpecLimits.DEFAULTS;
        loader = new SpecLoader(new SpecLimits(d.maxBytes(), d.maxElements(), d.maxDepth(), Duration.ofMinutes(2),
                d.queries()));
        ServiceSpec spec;
        if (this.spec.equals(H2H_VARIANT)) {
            spec = loader.load(variantOfH2h(loader), this.spec);
        } else {
            spec = loader.load(resource(this.spec.equals("h2h-ack.scxml") ? "/services/h2h-ack.scxml" : this.spec),
                    this.spec);
        }
        runtime = new ServiceRuntime(spec);
        sender = new Node(SOURCE, sourceTopology(SOURCE, CHILD));
        receiver = new Node(CHILD, childTopology(CHILD, SOURCE));
        payload = new byte[1024];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        // h2h-ack's source ends once acknowledged ("end"); a spec that lingers there waits in "done"
        String states = relay();
        if (!states.equals("[done]") && !states.equals("[end]")) {
            throw new IllegalStateException("the sender should be done after the ACK, is " + states);
        }
        live = new ServiceInstance(InstanceKey.ofMessage(SERVICE, SOURCE, -1), runtime, receiver.env);
        live.start();
        OverlayMessage p = sourcePayload(-1).forwardedBy(SOURCE);
        live.onMessage(p, runtime.spec().matchMessage(p, CHILD));
        ackRequest = new OverlayMessage(DeliveryMode.MULTICAST, 0, SOURCE, null, SOURCE, null,
                List.of(new FsmExtension(SERVICE, (byte) 3, -1)));
        wired = new Wired(spec);
        for (int i = 0; i < 10; i++) {
            wired.relay(sourcePayload(nextId++));
        }
        wired.clock.advanceBy(100, TimeUnit.MILLISECONDS);
        var atSource = wired.atSource.metrics().service(SERVICE).counters();
        var atChild = wired.atChild.metrics().service(SERVICE).counters();
        if (atSource.created() != 10 || atSource.compositesFired() != 10 || atChild.created() != 10
                || atSource.liveInstances() != 0 || atChild.liveInstances() != 0) {
            throw new IllegalStateException("the wired stores do not relay as expected:\n"
                    + wired.atSource.metrics().format() + wired.atChild.metrics().format());
        }
    }

    /** Closes the stores and the loader. */
    @TearDown(Level.Trial)
    public void tearDown() {
        wired.close();
        loader.close();
    }

    /** The shipped h2h-ack respelled ({@link SpecVariant}). */
    static byte[] variantOfH2h(SpecLoader loader) throws SpecException {
        byte[] shipped = resource("/services/h2h-ack.scxml");
        ServiceSpec original = loader.load(shipped, "h2h-ack.scxml");
        return SpecVariant.of(new String(shipped, StandardCharsets.UTF_8), original).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] resource(String name) {
        try (InputStream in = MessageStoreBenchmark.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private OverlayMessage sourcePayload(long id) {
        return new OverlayMessage(DeliveryMode.MULTICAST, 255, SOURCE, null, SOURCE, null,
                List.of(new FsmExtension(SERVICE, FsmExtension.PAYLOAD_TYPE, id), new PayloadExtension(payload)));
    }

    /** One relayed message; returns the sender's final states. */
    private String relay() {
        long id = nextId++;
        OverlayMessage p = sourcePayload(id);
        ServiceInstance s = new ServiceInstance(InstanceKey.ofMessage(SERVICE, SOURCE, id), runtime, sender.env);
        s.start();
        s.onMessage(p, runtime.spec().matchMessage(p, SOURCE));
        OverlayMessage copy = p.forwardedBy(SOURCE);
        ServiceInstance r = new ServiceInstance(InstanceKey.ofMessage(SERVICE, SOURCE, id), runtime, receiver.env);
        r.start();
        r.onMessage(copy, runtime.spec().matchMessage(copy, CHILD));
        OverlayMessage ack = receiver.overlay.lastControlAsReceivedBy(SOURCE);
        s.onMessage(ack, runtime.spec().matchMessage(ack, SOURCE));
        String states = s.states().toString();
        s.dispose(EndCause.CLOSED);
        r.dispose(EndCause.CLOSED);
        return states;
    }

    /** Data at the receiver + instance at the sender + ACK with the composite event. */
    @Benchmark
    public String relayedMessage() {
        return relay();
    }

    /** One event into a live instance. */
    @Benchmark
    public ServiceInstance event() {
        live.onMessage(ackRequest, runtime.spec().matchMessage(ackRequest, CHILD));
        return live;
    }

    /** A new instance: create, enter the initial state, dispose. */
    @Benchmark
    public ServiceInstance newInstance() {
        ServiceInstance i = new ServiceInstance(InstanceKey.ofMessage(SERVICE, SOURCE, nextId++), runtime, sender.env);
        i.start();
        i.dispose(EndCause.CLOSED);
        return i;
    }

    /** A relayed message through two whole stores. */
    @Benchmark
    public long relayedThroughStores() {
        return wired.relay(sourcePayload(nextId++));
    }

    // ------------------------------------------------------------------ plumbing

    /** One node: its overlay, clock and instance environment. */
    private static final class Node {
        final VirtualTimerService clock = new VirtualTimerService();
        final BenchOverlay overlay;
        final Env env;

        Node(LogicalAddress self, Topology topology) {
            overlay = new BenchOverlay(self, topology, clock, null);
            env = new Env(overlay);
        }
    }

    /** The instance environment of the direct benchmarks: timers on a clock that never moves. */
    private static final class Env extends StandaloneEnvironment {
        Env(OverlayContext overlay) {
            super(overlay, UNTHROTTLED);
        }

        @Override
        public SendBudget sendBudget() {
            return SendBudget.UNBOUNDED; // the clock never moves: a bounded budget would run dry
        }

        @Override
        public void quarantine(ServiceRuntime service, String reason) {
            throw new IllegalStateException(reason);
        }
    }

    /** Two stores wired to each other, sharing one virtual clock. */
    private static final class Wired {
        final VirtualTimerService clock = new VirtualTimerService();
        final MessageStore atSource;
        final MessageStore atChild;

        Wired(ServiceSpec spec) {
            ServiceSpec fast;
            try {
                fast = spec.withParameters(Map.of("TimeoutFinalDelete", "50", "TimeoutACK", "1000",
                        "TimeoutMaxACK", "20", "TimeoutMsg", "5"));
            } catch (SpecException e) {
                throw new IllegalStateException(e);
            }
            MessageStoreConfig config = MessageStoreConfig.defaults().withShards(1)
                    .withThreading(MessageStoreConfig.Threading.CLOCK).withInstances(UNTHROTTLED)
                    .withSendBudget(SendBudget.UNBOUNDED);
            atSource = new MessageStore(config);
            atChild = new MessageStore(config);
            BenchOverlay toSource = new BenchOverlay(SOURCE, sourceTopology(SOURCE, CHILD), clock, null);
            BenchOverlay toChild = new BenchOverlay(CHILD, childTopology(CHILD, SOURCE), clock, atSource);
            atSource.open(toSource);
            atChild.open(toChild);
            try {
                atSource.install(fast);
                atChild.install(fast);
            } catch (io.statecast.messagestore.deploy.ServiceLoadException e) {
                throw new IllegalStateException(e);
            }
        }

        long relay(OverlayMessage p) {
            atSource.receiveMessage(p, Arrival.FROM_APPLICATION);
            atChild.receiveMessage(p.forwardedBy(SOURCE), Arrival.DELIVERED);
            clock.advanceBy(1, TimeUnit.MILLISECONDS);
            return clock.tasksRun();
        }

        void close() {
            atSource.close();
            atChild.close();
        }
    }

    /**
     * An overlay that sends nothing, except that a unicast control message is handed to
     * {@code peer} (if any) as the peer would receive it.
     */
    static final class BenchOverlay implements OverlayContext {
        private final LogicalAddress self;
        private final Topology topology;
        private final TimerService clock;
        private final MessageStore peer;
        private byte lastType;
        private long lastId;
        private long ids;

        BenchOverlay(LogicalAddress self, Topology topology, TimerService clock, MessageStore peer) {
            this.self = self;
            this.topology = topology;
            this.clock = clock;
            this.peer = peer;
        }

        OverlayMessage lastControlAsReceivedBy(LogicalAddress to) {
            return new OverlayMessage(DeliveryMode.UNICAST, 254, self, to, self, null,
                    List.<Extension>of(new FsmExtension(SERVICE, lastType, lastId)));
        }

        @Override
        public LogicalAddress localAddress() {
            return self;
        }

        @Override
        public Topology topology() {
            return topology;
        }

        @Override
        public TimerService timers() {
            return clock;
        }

        @Override
        public long newMessageId() {
            return ++ids;
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, byte[] data, Route route) {
            return 1;
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
            return sendControlMessage(serviceId, messageType, messageId, null, MessageFields.EMPTY, body, route);
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, LogicalAddress origin,
                MessageFields fields, byte[] body, Route route) {
            lastType = messageType;
            lastId = messageId;
            if (peer != null && route.mode() == DeliveryMode.UNICAST && !route.destination().equals(self)) {
                peer.receiveMessage(new OverlayMessage(DeliveryMode.UNICAST, 254, self, route.destination(), self, null,
                        Origin.with(List.<Extension>of(new FsmExtension(serviceId, messageType, messageId)), origin,
                                self)), Arrival.DELIVERED);
            }
            return 1;
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, LogicalAddress origin, MessageFields fields,
                byte[] data, Route route) {
            return 1;
        }

        @Override
        public int forwardMessage(OverlayMessage message) {
            return 1;
        }

        @Override
        public boolean toApplication(OverlayMessage message) {
            return true;
        }
    }

    /** The source's view of a two-node overlay: the leader, with {@code child} below it in every tree. */
    static Topology sourceTopology(LogicalAddress source, LogicalAddress child) {
        return new FixedTopology(source).leader(true).neighbour(child, null).otherTrees(null, child);
    }

    /** The child's view of a two-node overlay: a leaf, with {@code source} above it in every tree but its own. */
    static Topology childTopology(LogicalAddress child, LogicalAddress source) {
        return new FixedTopology(child).neighbour(source, null).otherTrees(source);
    }
}
