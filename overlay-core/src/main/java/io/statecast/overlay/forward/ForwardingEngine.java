package io.statecast.overlay.forward;

import io.micrometer.core.instrument.MeterRegistry;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FieldsExtension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.Origin;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.node.RttEstimate;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.TimerService;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blueprint's <em>forwarding engine</em>: moves application messages along the trees the
 * overlay node embeds in the overlay.
 *
 * <ul>
 *   <li><b>Multicast</b> goes down the tree rooted at the source (or the header's explicit root):
 *       deliver locally, then forward to {@code children(root)}. Its previous hop must be this
 *       node's {@code parent(root)}, else the copy is dropped.</li>
 *   <li><b>Unicast</b> goes up the tree rooted at the destination: forward to
 *       {@code nextHop(destination)}, deliver at the destination. Its previous hop must be a
 *       neighbour.</li>
 *   <li><b>Flood</b> goes to every neighbour but the previous hop; each node delivers and
 *       forwards a flood once (see {@link FloodId} for how floods are named). Its previous hop is
 *       not checked: a flood should survive neighbour churn, and the seen-cache already stops
 *       every copy after the first.</li>
 *   <li>Every transmission decrements the hop limit and rewrites the previous hop
 *       ({@link OverlayMessage#forwardedBy}); a message created with limit {@code h} crosses at
 *       most {@code h} links.</li>
 *   <li>Messages carrying an FSM extension follow the {@link MessageStorePort} rules when a port
 *       is installed; without one they are delivered and forwarded like any other.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Thread-safe and lock-free on the multicast and unicast paths: it runs on whatever thread hands
 * it a message (I/O threads for received messages, the application's thread for sends), reads
 * the node's published {@link Topology} snapshot once per message, and never blocks (the
 * transmitter, the application sink and the store port all only enqueue). Floods take one short
 * lock in the seen-cache.
 */
public final class ForwardingEngine {

    private static final Logger LOG = LoggerFactory.getLogger(ForwardingEngine.class);

    /**
     * Settings of the engine.
     *
     * @param defaultHopLimit   hop limit of messages originated here unless a route says otherwise
     * @param floodCacheEntries flood names remembered for duplicate suppression
     */
    public record Settings(int defaultHopLimit, int floodCacheEntries) {
        /** Checks ranges. */
        public Settings {
            if (defaultHopLimit < 0 || defaultHopLimit > OverlayMessage.MAX_HOP_LIMIT) {
                throw new IllegalArgumentException("defaultHopLimit must be 0..255, got " + defaultHopLimit);
            }
            if (floodCacheEntries < 1) {
                throw new IllegalArgumentException("floodCacheEntries must be >= 1, got " + floodCacheEntries);
            }
        }
    }

    private final LogicalAddress.Family family;
    private final Supplier<Topology> topology;
    private final Function<LogicalAddress, Optional<RttEstimate>> rtts;
    private final Transmitter transmitter;
    private final ApplicationSink application;
    private final TimerService timers;
    private final Settings settings;
    private final MessageIds ids;
    private final SeenCache seen;
    private final Context context = new Context();
    private volatile ScheduledExecutorService receiveExecutor;
    /** The socket's registry handed to the store ({@link OverlayContext#meterRegistry}), or null. */
    private volatile MeterRegistry meterRegistry;
    private volatile MessageStorePort store;

    private final LongAdder received = new LongAdder();
    private final LongAdder originated = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder transmissions = new LongAdder();
    private final LongAdder toStore = new LongAdder();
    private final EnumMap<DropCause, LongAdder> drops = new EnumMap<>(DropCause.class);

    /**
     * @param self        this node's logical address when the engine is built; afterwards the
     *                    engine follows {@link Topology#self()} of the current snapshot, because
     *                    a DT node whose random coordinates turn out to be taken draws new ones
     *                    while it joins
     * @param topology    the node's current snapshot (read once per message)
     * @param transmitter puts copies on the substrate
     * @param application delivers to the local application
     * @param timers      the node's timer service (handed to a MessageStore)
     * @param ids         this node's MessageID generator
     * @param settings    hop limit and flood cache size
     */
    public ForwardingEngine(LogicalAddress self, Supplier<Topology> topology, Transmitter transmitter,
                            ApplicationSink application, TimerService timers, MessageIds ids, Settings settings) {
        this(self, topology, neighbour -> Optional.empty(), transmitter, application, timers, ids, settings);
    }

    /**
     * As {@link #ForwardingEngine(LogicalAddress, Supplier, Transmitter, ApplicationSink, TimerService, MessageIds,
     * Settings)}, with the node's round-trip times, which the store reads through
     * {@link OverlayContext#neighbourRtt}.
     *
     * @param rtts the node's measured round-trip time to a neighbour
     *             ({@link io.statecast.overlay.node.OverlayNode#rtt}), empty if unknown
     */
    public ForwardingEngine(LogicalAddress self, Supplier<Topology> topology,
                            Function<LogicalAddress, Optional<RttEstimate>> rtts, Transmitter transmitter,
                            ApplicationSink application, TimerService timers, MessageIds ids, Settings settings) {
        this.rtts = Objects.requireNonNull(rtts, "rtts");
        this.family = Objects.requireNonNull(self, "self").family();
        this.topology = Objects.requireNonNull(topology, "topology");
        this.transmitter = Objects.requireNonNull(transmitter, "transmitter");
        this.application = Objects.requireNonNull(application, "application");
        this.timers = Objects.requireNonNull(timers, "timers");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.seen = new SeenCache(settings.floodCacheEntries());
        for (DropCause c : DropCause.values()) {
            drops.put(c, new LongAdder());
        }
    }

    /**
     * Installs the MessageStore: from now on messages with an FSM extension follow the port's
     * rules. Calls {@link MessageStorePort#open} with this engine's context first.
     *
     * @throws IllegalStateException if a store is already installed
     */
    public synchronized void installStore(MessageStorePort port) {
        installStore(port, null);
    }

    /**
     * As {@link #installStore(MessageStorePort)}, telling the store the one thread that calls
     * {@link #onReceive} ({@link OverlayContext#receiveExecutor}).
     *
     * @param receiveExecutor that thread's executor, or {@code null} if there is no single one
     * @throws IllegalStateException if a store is already installed
     */
    public synchronized void installStore(MessageStorePort port, ScheduledExecutorService receiveExecutor) {
        installStore(port, receiveExecutor, null);
    }

    /**
     * As {@link #installStore(MessageStorePort, ScheduledExecutorService)}, with the registry the
     * store binds its meters to when it opens ({@link OverlayContext#meterRegistry}).
     *
     * @param meterRegistry the socket's registry, or {@code null} if it exports no metrics
     * @throws IllegalStateException if a store is already installed
     */
    public synchronized void installStore(MessageStorePort port, ScheduledExecutorService receiveExecutor,
            MeterRegistry meterRegistry) {
        Objects.requireNonNull(port, "port");
        if (store != null) {
            throw new IllegalStateException("a MessageStore is already installed");
        }
        this.receiveExecutor = receiveExecutor;
        this.meterRegistry = meterRegistry;
        port.open(context);
        store = port;
    }

    /** The installed store, or {@code null}. */
    public MessageStorePort store() {
        return store;
    }

    /** The context a MessageStore acts through (also usable without a store, e.g. by tests). */
    public OverlayContext context() {
        return context;
    }

    /** This node's MessageID generator. */
    public long newMessageId() {
        return ids.next();
    }

    /**
     * A MessageID for the application's next message of {@code serviceId}: the next of that
     * service's counter when the installed store asks for consecutive ones
     * ({@link ServiceMetaops#numbersConsecutively}), else {@link #newMessageId()}.
     */
    public long newMessageId(int serviceId) {
        MessageStorePort s = store;
        return s != null && metaops(s, serviceId).numbersConsecutively() ? ids.nextInSequence(serviceId) : ids.next();
    }

    /** The hop limit of messages originated here by default. */
    public int defaultHopLimit() {
        return settings.defaultHopLimit();
    }

    // ------------------------------------------------------------------------------------------
    // Received from the substrate

    /**
     * Handles an application message received from the substrate (called by the adapter's
     * listener, on an I/O thread).
     */
    public void onReceive(OverlayMessage m, SubstrateAddress from) {
        received.increment();
        if (m.source().family() != family) {
            drop(DropCause.WRONG_FAMILY, m);
            return;
        }
        Topology t = topology.get();
        LogicalAddress self = t.self();
        if (m.source().equals(self) || m.previousHop().equals(self)) {
            drop(DropCause.OWN_MESSAGE, m);
            return;
        }
        switch (m.mode()) {
            case MULTICAST -> {
                LogicalAddress root = m.treeRoot();
                if (!m.previousHop().equals(t.parent(root))) {
                    drop(DropCause.PREVIOUS_HOP_NOT_PARENT, m);
                    return;
                }
                atTarget(m, t.children(root), t);
            }
            case FLOOD -> {
                FloodId.Key key = FloodId.keyOf(m);
                if (key == null) {
                    drop(DropCause.NO_FLOOD_ID, m);
                    return;
                }
                if (!seen.add(key)) {
                    drop(DropCause.DUPLICATE, m);
                    return;
                }
                atTarget(m, floodHops(t, m.previousHop()), t);
            }
            case UNICAST -> {
                if (!t.isNeighbour(m.previousHop())) {
                    drop(DropCause.PREVIOUS_HOP_NOT_NEIGHBOUR, m);
                    return;
                }
                if (m.destination().equals(self)) {
                    atTarget(m, List.of(), t);
                } else {
                    inTransit(m, t);
                }
            }
        }
    }

    /** A message for this node (and maybe others below it): to the store or the application, then on. */
    private void atTarget(OverlayMessage m, Collection<LogicalAddress> next, Topology t) {
        FsmExtension fsm = m.fsm();
        MessageStorePort port = store;
        if (fsm != null && port != null) {
            boolean storeForwards = metaops(port, fsm.serviceId()).forwardsItself();
            offer(port, m, Arrival.DELIVERED);
            if (!storeForwards) {
                transmit(m, next, t);
            }
        } else {
            deliverLocally(m, false);
            transmit(m, next, t);
        }
    }

    /** A unicast message this node relays. */
    private void inTransit(OverlayMessage m, Topology t) {
        FsmExtension fsm = m.fsm();
        MessageStorePort port = store;
        ServiceMetaops ops = fsm != null && port != null ? metaops(port, fsm.serviceId()) : ServiceMetaops.NONE;
        if (ops.processIntermediateUnicast()) {
            offer(port, m, Arrival.TRANSIT);
            if (ops.forwardsItself()) {
                return;
            }
        }
        LogicalAddress next = t.nextHop(m.destination());
        if (next == null) {
            drop(DropCause.NO_ROUTE, m);
            return;
        }
        transmit(m, List.of(next), t);
    }

    // ------------------------------------------------------------------------------------------
    // Originated here

    /**
     * Sends a message the local application created (source and previous hop are this node).
     * A flood gets its flood identifier here if it has none. With a store installed, a message
     * with an FSM extension goes to the store first and on only if the store does not forward
     * that service itself.
     *
     * @return substrate transmissions made
     * @throws IllegalArgumentException if the message's source or previous hop is not this node
     */
    public int send(OverlayMessage m) {
        requireOwn(m);
        MessageStorePort port = store;
        FsmExtension fsm = m.fsm();
        if (fsm != null && port != null) {
            OverlayMessage named = nameIfFlood(m);
            boolean storeForwards = metaops(port, fsm.serviceId()).forwardsItself();
            originated.increment();
            offer(port, named, Arrival.FROM_APPLICATION);
            return storeForwards ? 0 : route(named, topology.get());
        }
        return originate(m);
    }

    /** Sends a message built here without involving the store (the store's own sends). */
    private int originate(OverlayMessage m) {
        originated.increment();
        return route(nameIfFlood(m), topology.get());
    }

    /**
     * A message the store sends: to the overlay, except a unicast to this node of a service that
     * receives its own unicasts, which goes back to the store as delivered (counted as one).
     */
    private int fromStore(OverlayMessage m) {
        MessageStorePort port = store;
        FsmExtension fsm = m.fsm();
        if (m.mode() == DeliveryMode.UNICAST && port != null && fsm != null && m.destination().equals(self())
                && metaops(port, fsm.serviceId()).receivesOwnUnicast()) {
            originated.increment();
            offer(port, m, Arrival.DELIVERED);
            return 1;
        }
        return originate(m);
    }

    private OverlayMessage nameIfFlood(OverlayMessage m) {
        if (m.mode() != DeliveryMode.FLOOD) {
            return m;
        }
        OverlayMessage named = FloodId.present(m) ? m : FloodId.attach(m, ids.next());
        seen.add(FloodId.keyOf(named));
        return named;
    }

    /** Transmits {@code m} to the next hops its header implies, from this node. */
    private int route(OverlayMessage m, Topology t) {
        LogicalAddress self = t.self();
        return switch (m.mode()) {
            case MULTICAST -> transmit(m, t.children(m.treeRoot()), t);
            case FLOOD -> transmit(m, floodHops(t, m.previousHop()), t);
            case UNICAST -> {
                if (m.destination().equals(self)) {
                    if (m.source().equals(self) && m.fsm() == null) {
                        deliverLocally(m, false); // unicast to oneself: straight to the application
                    }
                    yield 0;
                }
                LogicalAddress next = t.nextHop(m.destination());
                if (next == null) {
                    drop(DropCause.NO_ROUTE, m);
                    yield 0;
                }
                yield transmit(m, List.of(next), t);
            }
        };
    }

    private void requireOwn(OverlayMessage m) {
        LogicalAddress self = self();
        if (!m.source().equals(self) || !m.previousHop().equals(self)) {
            throw new IllegalArgumentException("a message sent from " + self + " must have it as source and previous hop: "
                    + m.source() + ", " + m.previousHop());
        }
    }

    // ------------------------------------------------------------------------------------------
    // Common steps

    private static List<LogicalAddress> floodHops(Topology t, LogicalAddress except) {
        List<LogicalAddress> out = new ArrayList<>(t.neighbours().size());
        for (LogicalAddress n : t.neighbours()) {
            if (!n.equals(except)) {
                out.add(n);
            }
        }
        return out;
    }

    private int transmit(OverlayMessage m, Collection<LogicalAddress> next, Topology t) {
        if (next.isEmpty()) {
            return 0;
        }
        if (m.hopLimit() == 0) {
            drop(DropCause.HOP_LIMIT, m);
            return 0;
        }
        OverlayMessage out = m.forwardedBy(t.self());
        int sent = 0;
        for (LogicalAddress hop : next) {
            SubstrateAddress to = t.substrateAddress(hop);
            if (to == null) {
                drop(DropCause.NO_SUBSTRATE_ADDRESS, m);
                continue;
            }
            boolean ok;
            try {
                ok = transmitter.transmit(to, out);
            } catch (RuntimeException e) {
                LOG.warn("transmitter failed sending to {}: {}", to, e.toString());
                ok = false;
            }
            if (ok) {
                sent++;
            } else {
                drop(DropCause.SEND_FAILED, m);
            }
        }
        transmissions.add(sent);
        return sent;
    }

    /** {@code fromStore}: a MessageStore delivers it (see {@link ApplicationSink#deliverFromStore}). */
    private boolean deliverLocally(OverlayMessage m, boolean fromStore) {
        boolean ok;
        try {
            ok = fromStore ? application.deliverFromStore(m) : application.deliver(m);
        } catch (RuntimeException e) {
            LOG.warn("application sink failed: {}", e.toString());
            ok = false;
        }
        if (ok) {
            delivered.increment();
        } else {
            drop(DropCause.APPLICATION_QUEUE_FULL, m);
        }
        return ok;
    }

    private void offer(MessageStorePort port, OverlayMessage m, Arrival arrival) {
        boolean ok;
        try {
            ok = port.receiveMessage(m, arrival);
        } catch (RuntimeException e) {
            LOG.warn("MessageStore failed on a message of service {}: {}", m.fsm().serviceId(), e.toString());
            ok = false;
        }
        if (ok) {
            toStore.increment();
        } else {
            drop(DropCause.STORE_REJECTED, m);
        }
    }

    /** The store's metaops for the service; {@link ServiceMetaops#NONE} if it fails to answer. */
    private static ServiceMetaops metaops(MessageStorePort port, int serviceId) {
        ServiceMetaops ops;
        try {
            ops = port.metaops(serviceId);
        } catch (RuntimeException e) {
            LOG.warn("MessageStore metaop failed for service {}: {}", serviceId, e.toString());
            return ServiceMetaops.NONE;
        }
        return ops != null ? ops : ServiceMetaops.NONE;
    }

    private void drop(DropCause cause, OverlayMessage m) {
        drops.get(cause).increment();
        if (LOG.isTraceEnabled()) {
            LOG.trace("{} dropped {} from {} via {}: {}", self(), m.mode(), m.source(), m.previousHop(), cause);
        }
    }

    /** A snapshot of the counters. */
    public ForwardingStatistics statistics() {
        Map<DropCause, Long> d = new EnumMap<>(DropCause.class);
        drops.forEach((c, a) -> d.put(c, a.sum()));
        return new ForwardingStatistics(received.sum(), originated.sum(), delivered.sum(), transmissions.sum(),
                toStore.sum(), d);
    }

    // ------------------------------------------------------------------------------------------

    private OverlayMessage build(Route route, List<Extension> extensions) {
        int hops = route.hopLimit() == Route.DEFAULT_HOP_LIMIT ? settings.defaultHopLimit() : route.hopLimit();
        LogicalAddress self = self();
        return new OverlayMessage(route.mode(), hops, self, route.destination(), self, route.root(), extensions);
    }

    /** This node's current logical address. */
    private LogicalAddress self() {
        return topology.get().self();
    }

    /** The primitives a MessageStore acts through. */
    private final class Context implements OverlayContext {

        @Override
        public LogicalAddress localAddress() {
            return self();
        }

        @Override
        public Topology topology() {
            return topology.get();
        }

        @Override
        public Optional<RttEstimate> neighbourRtt(LogicalAddress neighbour) {
            return rtts.apply(neighbour);
        }

        @Override
        public TimerService timers() {
            return timers;
        }

        @Override
        public Optional<MeterRegistry> meterRegistry() {
            return Optional.ofNullable(meterRegistry);
        }

        @Override
        public ScheduledExecutorService receiveExecutor() {
            return receiveExecutor;
        }

        @Override
        public long newMessageId() {
            return ids.next();
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, byte[] payload, Route route) {
            Objects.requireNonNull(payload, "payload");
            return fromStore(build(route, List.of(
                    new FsmExtension(serviceId, FsmExtension.PAYLOAD_TYPE, messageId), new PayloadExtension(payload))));
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
            FsmExtension fsm = new FsmExtension(serviceId, messageType, messageId);
            List<Extension> ext = body == null ? List.of(fsm) : List.of(fsm, new PayloadExtension(body));
            return fromStore(build(route, ext));
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, MessageFields fields, byte[] payload, Route route) {
            Objects.requireNonNull(payload, "payload");
            FsmExtension fsm = new FsmExtension(serviceId, FsmExtension.PAYLOAD_TYPE, messageId);
            List<Extension> ext = fields.isEmpty() ? List.of(fsm, new PayloadExtension(payload))
                    : List.of(fsm, new FieldsExtension(fields), new PayloadExtension(payload));
            return fromStore(build(route, ext));
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, MessageFields fields,
                byte[] body, Route route) {
            FsmExtension fsm = new FsmExtension(serviceId, messageType, messageId);
            List<Extension> ext = new ArrayList<>(3);
            ext.add(fsm);
            if (!fields.isEmpty()) {
                ext.add(new FieldsExtension(fields));
            }
            if (body != null) {
                ext.add(new PayloadExtension(body));
            }
            return fromStore(build(route, ext));
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, LogicalAddress origin, MessageFields fields,
                byte[] payload, Route route) {
            Objects.requireNonNull(payload, "payload");
            List<Extension> ext = new ArrayList<>(4);
            ext.add(new FsmExtension(serviceId, FsmExtension.PAYLOAD_TYPE, messageId));
            if (!fields.isEmpty()) {
                ext.add(new FieldsExtension(fields));
            }
            ext.add(new PayloadExtension(payload));
            return fromStore(build(route, Origin.with(ext, origin, self())));
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, LogicalAddress origin,
                MessageFields fields, byte[] body, Route route) {
            List<Extension> ext = new ArrayList<>(4);
            ext.add(new FsmExtension(serviceId, messageType, messageId));
            if (!fields.isEmpty()) {
                ext.add(new FieldsExtension(fields));
            }
            if (body != null) {
                ext.add(new PayloadExtension(body));
            }
            return fromStore(build(route, Origin.with(ext, origin, self())));
        }

        @Override
        public int forwardMessage(OverlayMessage message) {
            return route(message, topology.get());
        }

        @Override
        public boolean toApplication(OverlayMessage message) {
            return deliverLocally(message, true);
        }

        @Override
        public void flushDeliveries() {
            try {
                application.flush();
            } catch (RuntimeException e) {
                LOG.warn("application sink failed: {}", e.toString());
            }
        }

        @Override
        public boolean applicationHasRoom() {
            return application.hasRoom();
        }

        @Override
        public long deliveryWaitNanos() {
            return application.deliveryWaitNanos();
        }
    }
}
