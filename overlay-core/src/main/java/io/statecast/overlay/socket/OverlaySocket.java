package io.statecast.overlay.socket;

import io.netty.util.concurrent.EventExecutor;
import io.statecast.overlay.address.AddressRepository;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.forward.ApplicationSink;
import io.statecast.overlay.forward.DropCause;
import io.statecast.overlay.forward.FlowControl;
import io.statecast.overlay.forward.ForwardingEngine;
import io.statecast.overlay.forward.MessageIds;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayId;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.metrics.NodeMetrics;
import io.statecast.overlay.node.NodeEnvironment;
import io.statecast.overlay.node.NodeListener;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.OverlayNode;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.security.FrameAuthenticator;
import io.statecast.overlay.security.KeyFileException;
import io.statecast.overlay.substrate.Adapter;
import io.statecast.overlay.substrate.AdapterConfig;
import io.statecast.overlay.substrate.AdapterListener;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.SubstrateInterface;
import io.statecast.overlay.substrate.TimerService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blueprint's <em>overlay socket</em>: an application's end point in an overlay. It puts
 * together an adapter (substrate interfaces, codec, timer service), the overlay node the
 * configuration names, and the forwarding engine; optionally a MessageStore.
 *
 * <pre>{@code
 * try (OverlaySocket s = OverlaySocket.create(OverlayConfig.load(Path.of("chat.yaml")))) {
 *     s.onMessage(m -> System.out.println(m.source() + ": " + new String(m.payload(), UTF_8)));
 *     s.join();
 *     s.sendToAll("hello".getBytes(UTF_8));
 * }
 * }</pre>
 *
 * <h2>Threads</h2>
 * Every method is thread-safe. Sends run the forwarding engine on the caller's thread and do not
 * block, except that a message of a service whose spec declares in-flight states waits while the
 * send window ({@code overlay.sendWindow}) is full. Received messages are forwarded on the I/O thread that decoded them and queued for the
 * application in a bounded queue (overflow is dropped and counted as
 * {@link DropCause#APPLICATION_QUEUE_FULL}); the application takes them with {@link #receive} or
 * gets them through a callback ({@link #onMessage}) that runs on the socket's own delivery thread —
 * never on an I/O thread, so a slow callback delays only later deliveries. A failure detector's
 * reports (such as the shipped {@code heartbeat-fd}'s) can instead reach a listener as typed
 * {@link PeerEvent}s ({@link #onPeerEvent}), on a thread and in a queue of their own.
 *
 * <h2>Simulations</h2>
 * {@link #builder} accepts injected substrate interfaces (e.g. of an in-memory network) and timer
 * service (e.g. a virtual clock), plus a seeded random generator. With a virtual clock use
 * {@link #joinAsync()} and advance the clock; {@link #join()} waits in wall-clock time.
 */
public final class OverlaySocket implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OverlaySocket.class);

    private final OverlayConfig config;
    private final TimerService timers;
    private final AutoCloseable ownedTimers;
    private final Adapter adapter;
    /** Re-reads the key file when it changes; null without frame authentication. */
    private final KeyFileReloader keyReloader;
    private final MessageCodec codec;
    private final OverlayNode node;
    private final ForwardingEngine engine;
    /**
     * What a send of a service's data message asks first ({@link MessageStorePort#flowControl}):
     * the installed store's, or one that never waits.
     */
    private volatile FlowControl flow;
    /** The address the node was created with; the node's current one is {@link #localAddress()}. */
    private final LogicalAddress self;
    private final Inbox inbox;
    private final NodeMetrics metrics;
    private final PeerEvents peerEvents;
    private final Object lifecycle = new Object();
    private volatile Consumer<OverlayMessage> callback;
    private Thread deliveryThread;
    private volatile boolean joinRequested;
    private final java.util.concurrent.atomic.AtomicBoolean warmedUp = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean left;
    private volatile boolean closed;

    private OverlaySocket(Builder b) throws OverlayConfigException, IOException {
        this.config = b.config.validate();
        RandomGenerator random = b.random != null ? b.random : new SplittableRandom(new SecureRandom().nextLong());
        OverlayNodeFactory factory = b.nodeFactories.get(config.node());
        if (factory == null) {
            throw new OverlayConfigException("overlay.node", "overlay.node=" + config.node()
                    + ": no overlay node of this type is available (available: " + b.nodeFactories.keySet() + ")");
        }
        if (b.timers != null) {
            this.timers = b.timers;
            this.ownedTimers = null;
        } else {
            DefaultSubstrates.OwnedTimers t = DefaultSubstrates.timers("statecast-timer-" + config.id());
            this.timers = t.timers();
            this.ownedTimers = t.closer();
        }
        List<SubstrateInterface> interfaces = new ArrayList<>();
        NodeMetrics meters = null;
        try {
            if (b.interfaces != null) {
                interfaces.addAll(b.interfaces);
            } else {
                SubstrateFactory sf = b.substrateFactory != null ? b.substrateFactory
                        : a -> DefaultSubstrates.open(a, config.buffers().maxMessageBytes());
                for (SubstrateAddress a : config.interfaces()) {
                    interfaces.add(sf.open(a));
                }
            }
            FrameAuthenticator auth = null;
            int frameBudget = config.buffers().maxMessageBytes();
            if (config.security().mode() != OverlayConfig.Security.Mode.NONE) {
                auth = FrameAuthenticator.create(config.security().loadKeys(),
                        config.security().mode() == OverlayConfig.Security.Mode.AEAD);
                frameBudget -= FrameAuthenticator.TRAILER_BYTES; // maxMessageBytes bounds the frame, trailer included
            }
            this.codec = new MessageCodec(OverlayId.wireHash(config.id()), frameBudget);
            this.inbox = new Inbox(config.buffers().receiveQueueMessages());
            this.adapter = new Adapter(codec, timers, interfaces, new AddressRepository(), AdapterConfig.defaults(), auth);
            this.keyReloader = auth == null ? null
                    : new KeyFileReloader(config.security().keyFile(), auth, timers, config.security().reloadMs());
            this.flow = FlowControl.none(config.sendWindow().window());
            Dispatcher dispatcher = new Dispatcher();
            adapter.start(dispatcher);
            this.self = config.resolveAddress(random);
            NodeEnvironment env = new NodeEnvironment(adapter::send, adapter.localAddresses(), timers, random);
            this.node = factory.create(config, self, env);
            this.peerEvents = new PeerEvents(String.valueOf(self));
            InboxSink sink = new InboxSink(inbox, peerEvents, TimeUnit.MILLISECONDS.toNanos(config.buffers().deliveryWaitMs()),
                    TimeUnit.MICROSECONDS.toNanos(config.buffers().wakeIntervalMicros()), timers, adapter.receiveExecutor());
            this.engine = new ForwardingEngine(self, node::topology, node::rtt, adapter::send, sink, timers,
                    // the key of the MessageIDs from the system's strong source unless a test seeded the builder:
                    // a generator seeded with 64 bits could be recovered from what the node sends
                    new MessageIds(b.random != null ? random : new SecureRandom()),
                    new ForwardingEngine.Settings(config.forwarding().hopLimit(), config.forwarding().floodCacheEntries()));
            dispatcher.ready(node, engine);
            node.addListener(this::mirrorNeighbours);
            MessageStorePort port = b.store;
            if (port == null && config.messageStore() != null) {
                MessageStoreProvider provider = b.storeProvider != null ? b.storeProvider
                        : ServiceLoader.load(MessageStoreProvider.class).findFirst().orElseThrow(() -> new OverlayConfigException(
                                "overlay.messageStore", "overlay.messageStore is configured but no MessageStore is on the class path"));
                port = provider.create(config.messageStore());
            }
            if (b.exportMetrics) {
                meters = new NodeMetrics(config.id(), meterNodeTag(adapter, self), metricsAddress(config));
                SocketMeters.bind(meters.registry(), engine, node, adapter, this, inbox);
            } else if (config.metrics().http() != null) {
                throw new OverlayConfigException("overlay.metrics.http", "overlay.metrics.http="
                        + config.metrics().http() + ": this socket was built with its metrics turned off");
            } else {
                meters = NodeMetrics.none();
            }
            this.metrics = meters;
            if (port != null) {
                // after the registry exists: the store binds its meters when it opens
                engine.installStore(port, adapter.receiveExecutor(), meters.exporting() ? meters.registry() : null);
                this.flow = port.flowControl(config.sendWindow());
            }
            if (keyReloader != null) {
                keyReloader.start(); // last: nothing after it can fail and leave it polling
            }
        } catch (OverlayConfigException | IOException | RuntimeException e) {
            if (meters != null) {
                meters.close(); // unregisters the MBeans, stops the endpoint
            }
            interfaces.forEach(SubstrateInterface::close);
            closeOwnedTimers();
            throw e;
        }
    }

    /** The {@code node} tag of every meter: the first substrate address, else the logical one. */
    private static String meterNodeTag(Adapter adapter, LogicalAddress self) {
        List<SubstrateAddress> local = adapter.localAddresses();
        return local.isEmpty() ? String.valueOf(self) : local.get(0).toString();
    }

    private static InetSocketAddress metricsAddress(OverlayConfig config) {
        return config.metrics().httpAddress(); // validated with the configuration
    }

    /**
     * Keeps the adapter's address repository in step with the neighbours, so other components can
     * resolve a neighbour's substrate address there too (the forwarding engine reads the snapshot).
     */
    private void mirrorNeighbours(Topology previous, Topology current) {
        AddressRepository repo = adapter.addressRepository();
        for (LogicalAddress n : previous.neighbours()) {
            if (!current.isNeighbour(n)) {
                repo.remove(n);
            }
        }
        for (LogicalAddress n : current.neighbours()) {
            SubstrateAddress a = current.substrateAddress(n);
            if (a != null && !a.equals(previous.substrateAddress(n))) {
                repo.update(n, List.of(a));
            }
        }
    }

    /** A socket with default substrates and timers from {@code config}. */
    public static OverlaySocket create(OverlayConfig config) throws OverlayConfigException, IOException {
        return builder(config).build();
    }

    /** A builder for a socket from {@code config}, with injectable parts for tests and simulations. */
    public static Builder builder(OverlayConfig config) {
        return new Builder(config);
    }

    // ---------------------------------------------------------------------------------- lifecycle

    /**
     * Starts the overlay protocol and returns a future that completes once the node is part of an
     * overlay (state INCOMPLETE or STABLE), or fails with {@link OverlayJoinException} after
     * {@code overlay.join.timeoutMs} of the socket's clock. The first call of a socket on its own
     * clock first warms the receive path ({@link OverlayConfig.Join#warmUpMs()}, up to
     * {@code overlay.join.warmUpMs} on the calling thread; it sends nothing).
     *
     * @throws IllegalStateException if the socket is closed or has left
     */
    public CompletableFuture<Void> joinAsync() {
        requireOpen();
        if (left) {
            throw new IllegalStateException("socket " + self + " has left its overlay; create a new socket to join again");
        }
        warmUpReceivePath();
        CompletableFuture<Void> done = new CompletableFuture<>();
        NodeListener listener = (old, now) -> {
            if (now.state().connected()) {
                done.complete(null);
            } else if (now.state() == NodeState.STOPPED && node.failure() != null) {
                done.completeExceptionally(new OverlayJoinException("node " + old.self() + " of overlay '" + config.id()
                        + "' gave up joining: " + node.failure()));
            }
        };
        node.addListener(listener);
        joinRequested = true;
        node.join();
        timers.execute(() -> {
            if (node.state().connected()) {
                done.complete(null);
            }
        });
        TimerService.Timer timeout = timers.schedule(config.join().timeoutMs(), TimeUnit.MILLISECONDS,
                () -> done.completeExceptionally(new OverlayJoinException(joinFailure())));
        done.whenComplete((v, e) -> {
            node.removeListener(listener);
            timeout.cancel();
        });
        return done;
    }

    /**
     * Once, before the first join of a socket on its own clock: the receive-path warm-up
     * ({@link OverlayConfig.Join#warmUpMs()}). A socket on injected timers skips it.
     */
    private void warmUpReceivePath() {
        OverlayConfig.Join j = config.join();
        if (ownedTimers == null || !j.warmUpEnabled() || !warmedUp.compareAndSet(false, true)) {
            return;
        }
        ReceivePathWarmUp.run(codec, adapter.interfaces().get(0).scheme(), self.family(), engine.store(),
                config.forwarding(), j.warmUpRounds(), TimeUnit.MILLISECONDS.toNanos(j.warmUpMs()));
    }

    /**
     * Joins the overlay: returns once this node is part of one.
     *
     * @throws OverlayJoinException if that did not happen within {@code overlay.join.timeoutMs}
     * @throws InterruptedException if interrupted while waiting
     */
    public void join() throws OverlayJoinException, InterruptedException {
        CompletableFuture<Void> f = joinAsync();
        try {
            f.get(2 * config.join().timeoutMs() + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof OverlayJoinException j) {
                throw j;
            }
            throw new IllegalStateException("join failed", e.getCause());
        } catch (TimeoutException e) {
            throw new OverlayJoinException(joinFailure() + " (the socket's clock did not reach the join timeout)");
        }
    }

    private String joinFailure() {
        Topology t = node.topology();
        return "not part of overlay '" + config.id() + "' after " + config.join().timeoutMs() + " ms: node " + node.localAddress()
                + " is " + t.state() + " with " + t.neighbours().size() + " neighbours; buddies " + config.buddies()
                + (config.buddies().isEmpty() ? "" : " — check that a buddy runs, is reachable, and uses the same overlay id")
                + "; protocol counters " + node.counters();
    }

    /**
     * Leaves the overlay: Goodbye to every neighbour; the node stops. Returns at once; the
     * goodbyes go out on the timer thread. Sending or joining again after leaving fails.
     */
    public void leave() {
        left = true;
        node.leave();
    }

    /**
     * Leaves (if joined), stops the delivery thread, closes the MessageStore, the adapter and the
     * timer service if the socket created it. Idempotent.
     */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (deliveryThread != null) {
                deliveryThread.interrupt();
            }
        }
        peerEvents.close();
        node.leave();
        if (ownedTimers != null) {
            // let the goodbyes go out before the substrate closes
            CompletableFuture<Void> flushed = new CompletableFuture<>();
            timers.execute(() -> flushed.complete(null));
            try {
                flushed.get(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.debug("timer thread did not flush before close: {}", e.toString());
            }
        }
        MessageStorePort store = engine.store();
        if (store != null) {
            try {
                store.close();
            } catch (RuntimeException e) {
                LOG.warn("MessageStore failed to close: {}", e.toString());
            }
        }
        if (keyReloader != null) {
            keyReloader.stop();
        }
        adapter.close();
        metrics.close();
        closeOwnedTimers();
    }

    private void closeOwnedTimers() {
        if (ownedTimers != null) {
            try {
                ownedTimers.close();
            } catch (Exception e) {
                LOG.warn("timer service failed to close: {}", e.toString());
            }
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("socket closed");
        }
    }

    // ---------------------------------------------------------------------------------- sending

    /**
     * A message from this node: source and previous hop are the local address, hop limit the
     * configured one, payload as given.
     *
     * @param mode        unicast, multicast or flood
     * @param destination the destination for unicast, {@code null} otherwise
     * @param payload     the data (owned by the message from now on; do not modify it)
     */
    public OverlayMessage createMessage(DeliveryMode mode, LogicalAddress destination, byte[] payload) {
        return message(mode, destination, payload, null);
    }

    /**
     * As {@link #createMessage(DeliveryMode, LogicalAddress, byte[])}, marked for MessageStore
     * service {@code serviceId} as a data message with a new MessageID unique to this node: an
     * enciphered one, or the next of the service's counter when its store asks for consecutive
     * ones ({@link io.statecast.overlay.forward.ServiceMetaops#numbersConsecutively}).
     */
    public OverlayMessage createMessage(DeliveryMode mode, LogicalAddress destination, byte[] payload, int serviceId) {
        return message(mode, destination, payload, new FsmExtension(serviceId, FsmExtension.PAYLOAD_TYPE,
                engine.newMessageId(serviceId)));
    }

    private OverlayMessage message(DeliveryMode mode, LogicalAddress destination, byte[] payload, FsmExtension fsm) {
        Objects.requireNonNull(payload, "payload");
        List<Extension> ext = fsm == null ? List.of(new PayloadExtension(payload)) : List.of(fsm, new PayloadExtension(payload));
        LogicalAddress source = node.localAddress();
        return new OverlayMessage(mode, config.forwarding().hopLimit(), source, destination, source, null, ext);
    }

    /**
     * Sends a message created by {@link #createMessage}.
     *
     * <p>A data message of a MessageStore service whose spec declares in-flight states waits
     * first while {@code overlay.sendWindow.window} of this node's messages of that service are in
     * flight, or the store has no room for another instance (see {@link OverlayConfig.SendWindow};
     * not with a virtual clock, and not on the socket's timer thread).
     *
     * @return substrate transmissions made (0 for a lone node, or when a MessageStore forwards)
     * @throws IllegalStateException    if the socket has not joined, has left, or is closed
     * @throws IllegalArgumentException if the encoded message exceeds {@code overlay.buffers.maxMessageBytes}
     * @throws SendWindowException      if the window stayed full for {@code overlay.sendWindow.maxWaitMs},
     *                                  or the thread was interrupted while waiting; the message was not sent
     */
    public int send(OverlayMessage message) {
        requireOpen();
        if (left) {
            // the node's state changes only when its protocol thread handles the leave
            throw new IllegalStateException("socket " + node.localAddress() + " is not in an overlay: it has left");
        }
        // a node starts joining on its protocol thread, so right after joinAsync() it may still
        // be STOPPED: only one that stopped because it gave up is out of the overlay
        if (!joinRequested || (node.state() == NodeState.STOPPED && node.failure() != null)) {
            throw new IllegalStateException("socket " + node.localAddress() + " is not in an overlay (state " + node.state() + "): join() first");
        }
        int size = codec.encodedSize(message) + (message.mode() == DeliveryMode.FLOOD ? 16 : 0);
        if (size > codec.maxMessageBytes()) {
            throw new IllegalArgumentException("message of " + size + " bytes exceeds overlay.buffers.maxMessageBytes="
                    + codec.maxMessageBytes() + (keyReloader == null ? ""
                            : " (" + config.buffers().maxMessageBytes() + " less the authentication trailer)"));
        }
        FsmExtension fsm = message.fsm();
        FlowControl f = flow;
        if (fsm != null && fsm.messageType() == FsmExtension.PAYLOAD_TYPE && f.acquire(fsm.serviceId())) {
            try {
                return engine.send(message);
            } finally {
                f.release(fsm.serviceId()); // the store counted the message, or refused it
            }
        }
        return engine.send(message);
    }

    /** What the send window did so far (waits, time waited, sends that gave up). */
    public SendWindowStatistics sendWindowStatistics() {
        return flow.statistics();
    }

    /**
     * What a send of a service's data message waits for: the installed MessageStore's flow
     * control ({@code overlay.sendWindow}), or one that never waits.
     */
    public FlowControl flowControl() {
        return flow;
    }

    /** Multicasts {@code data} to every node of the overlay, down the tree rooted here. */
    public int sendToAll(byte[] data) {
        return send(createMessage(DeliveryMode.MULTICAST, null, data));
    }

    /** Multicasts {@code data} marked with MessageStore service {@code serviceId}. */
    public int sendToAll(byte[] data, int serviceId) {
        return send(createMessage(DeliveryMode.MULTICAST, null, data, serviceId));
    }

    /** Unicasts {@code data} to {@code destination}, up the tree rooted there. */
    public int sendTo(LogicalAddress destination, byte[] data) {
        return send(createMessage(DeliveryMode.UNICAST, Objects.requireNonNull(destination, "destination"), data));
    }

    /** Unicasts {@code data} marked with MessageStore service {@code serviceId}. */
    public int sendTo(LogicalAddress destination, byte[] data, int serviceId) {
        return send(createMessage(DeliveryMode.UNICAST, Objects.requireNonNull(destination, "destination"), data, serviceId));
    }

    /** Floods {@code data} to every node: every neighbour, and on, each node once. */
    public int flood(byte[] data) {
        return send(createMessage(DeliveryMode.FLOOD, null, data));
    }

    /** Floods {@code data} marked with MessageStore service {@code serviceId}. */
    public int flood(byte[] data, int serviceId) {
        return send(createMessage(DeliveryMode.FLOOD, null, data, serviceId));
    }

    // ---------------------------------------------------------------------------------- receiving

    /**
     * Takes the next message for the application, waiting up to {@code timeout}.
     *
     * @return the message, or {@code null} if none arrived in time
     * @throws IllegalStateException if a callback is installed (it takes every message)
     */
    public OverlayMessage receive(long timeout, TimeUnit unit) throws InterruptedException {
        if (callback != null) {
            throw new IllegalStateException("a callback receives this socket's messages; receive() is not available");
        }
        return inbox.poll(timeout, unit);
    }

    /**
     * Delivers every message from now on to {@code handler}, on this socket's delivery thread (in
     * arrival order, one at a time; never on an I/O thread). An exception from the handler is
     * logged and does not stop delivery. Can be set once.
     */
    public void onMessage(Consumer<OverlayMessage> handler) {
        Objects.requireNonNull(handler, "handler");
        synchronized (lifecycle) {
            requireOpen();
            if (callback != null) {
                throw new IllegalStateException("a callback is already installed");
            }
            callback = handler;
            deliveryThread = new Thread(this::deliverLoop, "statecast-delivery-" + self);
            deliveryThread.setDaemon(true);
            deliveryThread.start();
        }
    }

    private void deliverLoop() {
        Consumer<OverlayMessage> handler = callback;
        while (!closed) {
            OverlayMessage m;
            try {
                m = inbox.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                handler.accept(m);
            } catch (RuntimeException e) {
                LOG.warn("{}: message callback failed: {}", self, e.toString());
            }
        }
    }

    /**
     * Delivers the peer events of the failure-detector service {@code serviceId} (such as the
     * shipped {@code heartbeat-fd}) to {@code listener} as {@link PeerEvent}s: every control
     * message the node's MessageStore delivers for that service with one of {@code types} is
     * turned into an event and no longer reaches {@link #receive} or {@link #onMessage}; other
     * messages of the service still do. The listener runs on a thread of the socket's own
     * ({@code statecast-peer-events-…}), one event at a time in arrival order, never on an I/O or
     * store thread; an exception from it is logged and delivery goes on. Events wait in a queue of
     * {@value PeerEvents#QUEUE_EVENTS} apart from the message queue (a full message queue does not
     * lose them); beyond it they are dropped, counted ({@link #peerEventsDropped()}) and logged.
     * One listener per service.
     *
     * @throws IllegalStateException if the socket is closed or the service has a listener already
     */
    public void onPeerEvent(int serviceId, PeerEventTypes types, Consumer<PeerEvent> listener) {
        Objects.requireNonNull(types, "types");
        Objects.requireNonNull(listener, "listener");
        requireOpen();
        peerEvents.register(serviceId, types, listener);
    }

    /** Peer events dropped because their queue was full (see {@link #onPeerEvent}). */
    public long peerEventsDropped() {
        return peerEvents.dropped();
    }

    // ---------------------------------------------------------------------------------- topology and the rest

    /**
     * This node's logical address (a DT node with a RANDOM address may draw a new one while it
     * joins, if the first is taken; see {@link OverlayNode#localAddress()}).
     */
    public LogicalAddress localAddress() {
        return node.localAddress();
    }

    /** The substrate addresses this socket's interfaces are bound to. */
    public List<SubstrateAddress> substrateAddresses() {
        return adapter.localAddresses();
    }

    /** The configuration the socket was built from. */
    public OverlayConfig config() {
        return config;
    }

    /** The node's state. */
    public NodeState state() {
        return node.state();
    }

    /** The current topology snapshot (take one and ask it several questions). */
    public Topology topology() {
        return node.topology();
    }

    /** The current neighbours. */
    public java.util.Set<LogicalAddress> neighbours() {
        return node.neighbours();
    }

    /** The parent toward {@code root}, or {@code null}. */
    public LogicalAddress parent(LogicalAddress root) {
        return node.parent(root);
    }

    /** The children in the tree rooted at {@code root}. */
    public List<LogicalAddress> children(LogicalAddress root) {
        return node.children(root);
    }

    /**
     * Reads {@code overlay.security.keyFile} now and installs its keys (a key rotation; the file is
     * also polled every {@code overlay.security.reloadMs}). Frames sealed afterwards use the
     * file's first key; frames under any of its keys are accepted.
     *
     * @return whether the keys changed
     * @throws KeyFileException      if the file cannot be used; the keys in use stay
     * @throws IllegalStateException if the socket has no frame authentication ({@code security.mode=none})
     */
    public boolean reloadKeys() throws KeyFileException {
        if (keyReloader == null) {
            throw new IllegalStateException("overlay '" + config.id() + "' has no frame authentication (security.mode=none)");
        }
        return keyReloader.reload();
    }

    /** The key-file reloader, or null without frame authentication (for tests). */
    KeyFileReloader keyReloader() {
        return keyReloader;
    }

    /** The overlay node (for listeners and counters). */
    public OverlayNode node() {
        return node;
    }

    /** The adapter (its metrics, address repository and interfaces). */
    public Adapter adapter() {
        return adapter;
    }

    /** The timer service every layer of this socket runs on. */
    public TimerService timers() {
        return timers;
    }

    /**
     * Installs a MessageStore: from now on messages marked with a ServiceID follow its rules
     * ({@link MessageStorePort}).
     *
     * @throws IllegalStateException if one is installed already
     */
    public void installMessageStore(MessageStorePort port) {
        requireOpen();
        engine.installStore(port, adapter.receiveExecutor(), metrics.exporting() ? metrics.registry() : null);
        flow = port.flowControl(config.sendWindow());
    }

    /**
     * The socket's meters: its registry (JMX always; Prometheus text at {@code /metrics} when
     * {@code overlay.metrics.http} is set) — see {@code docs/metrics.md}.
     */
    public NodeMetrics metrics() {
        return metrics;
    }

    /** The installed MessageStore (its metrics, its services), or {@code null}. */
    public MessageStorePort messageStore() {
        return engine.store();
    }

    /** A snapshot of the counters. */
    public OverlayStatistics statistics() {
        Topology t = node.topology();
        Map<String, Long> nodeCounters = node.counters();
        return new OverlayStatistics(t.state(), t.neighbours().size(), engine.statistics(), nodeCounters, inbox.size());
    }

    @Override
    public String toString() {
        return "OverlaySocket[" + config.id() + " " + node.localAddress() + " " + node.state() + "]";
    }

    /** Routes what the adapter decodes: protocol messages to the node, application messages to the engine. */
    private static final class Dispatcher implements AdapterListener {
        private volatile OverlayNode node;
        private volatile ForwardingEngine engine;

        void ready(OverlayNode n, ForwardingEngine e) {
            engine = e;
            node = n;
        }

        @Override
        public void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
            OverlayNode n = node;
            if (n != null) {
                n.onProtocolMessage(message, from);
            }
        }

        @Override
        public void onApplicationMessage(OverlayMessage message, SubstrateAddress from) {
            ForwardingEngine e = engine;
            if (e != null) {
                e.onReceive(message, from);
            }
        }
    }

    /** Configures and builds an {@link OverlaySocket}. */
    public static final class Builder {
        private final OverlayConfig config;
        private final Map<NodeType, OverlayNodeFactory> nodeFactories = OverlayNodeFactories.builtIn();
        private TimerService timers;
        private List<SubstrateInterface> interfaces;
        private SubstrateFactory substrateFactory;
        private RandomGenerator random;
        private MessageStorePort store;
        private MessageStoreProvider storeProvider;
        private boolean exportMetrics = true;

        private Builder(OverlayConfig config) {
            this.config = Objects.requireNonNull(config, "config");
        }

        /** Runs the socket on {@code service} (e.g. a virtual clock); the socket does not close it. */
        public Builder timers(TimerService service) {
            this.timers = Objects.requireNonNull(service, "service");
            return this;
        }

        /** Uses these interfaces instead of opening {@code overlay.interfaces} (e.g. in-memory ones). */
        public Builder interfaces(List<SubstrateInterface> list) {
            this.interfaces = List.copyOf(list);
            return this;
        }

        /** Opens {@code overlay.interfaces} with {@code factory} instead of the default UDP/TCP one. */
        public Builder substrateFactory(SubstrateFactory factory) {
            this.substrateFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /** Draws random addresses, jitter and MessageID starts from {@code generator} (seed it in tests). */
        public Builder random(RandomGenerator generator) {
            this.random = Objects.requireNonNull(generator, "generator");
            return this;
        }

        /** Builds nodes of {@code type} with {@code factory} (adds a type or replaces a built-in one). */
        public Builder nodeFactory(NodeType type, OverlayNodeFactory factory) {
            nodeFactories.put(Objects.requireNonNull(type, "type"), Objects.requireNonNull(factory, "factory"));
            return this;
        }

        /** Installs {@code port} as the MessageStore at build time. */
        public Builder messageStore(MessageStorePort port) {
            this.store = Objects.requireNonNull(port, "port");
            return this;
        }

        /**
         * Whether the socket exports its meters (JMX MBeans, and {@code /metrics} when
         * {@code overlay.metrics.http} is set); default true. Off for simulations of thousands of
         * sockets in one JVM, where a registry per socket would cost more than the nodes; then
         * {@code overlay.metrics.http} must not be set.
         */
        public Builder exportMetrics(boolean export) {
            this.exportMetrics = export;
            return this;
        }

        /** Builds the MessageStore from {@code overlay.messageStore} with {@code provider}. */
        public Builder messageStoreProvider(MessageStoreProvider provider) {
            this.storeProvider = Objects.requireNonNull(provider, "provider");
            return this;
        }

        /**
         * Validates the configuration, opens the substrates and builds the socket (not yet joined).
         *
         * @throws OverlayConfigException if the configuration is invalid or names an unavailable part
         * @throws IOException            if a substrate interface cannot be opened
         */
        public OverlaySocket build() throws OverlayConfigException, IOException {
            return new OverlaySocket(this);
        }
    }

    /**
     * The receive queue as the forwarding engine's sink. A MessageStore's delivery may wait for
     * room (see {@link OverlayConfig.Buffers#deliveryWaitMs()}); anything else is offered once.
     * The store's batches wake the application at most once per wake interval
     * ({@link OverlayConfig.Buffers#wakeIntervalMicros()}), the deferred wake-ups running on the
     * receive thread; without one (several interfaces, or none with a thread of its own) or on
     * injected timers (simulations keep their exact timing), every batch wakes it at once.
     */
    private static final class InboxSink implements ApplicationSink {
        private final Inbox inbox;
        private final PeerEvents peerEvents;
        private final long waitNanos;
        private final TimerService timers;
        private final ScheduledExecutorService receiveExecutor;
        private final WakePacer pacer;

        InboxSink(Inbox inbox, PeerEvents peerEvents, long waitNanos, long wakeIntervalNanos, TimerService timers,
                  ScheduledExecutorService receiveExecutor) {
            this.inbox = inbox;
            this.peerEvents = peerEvents;
            this.waitNanos = waitNanos;
            this.timers = timers;
            this.receiveExecutor = receiveExecutor;
            boolean paced = receiveExecutor != null && timers instanceof RealTimerService;
            this.pacer = new WakePacer(paced ? wakeIntervalNanos : 0, System::nanoTime, this::deferWake, inbox::wakeTakers);
        }

        private void deferWake(Runnable wake, long delayNanos) {
            try {
                receiveExecutor.schedule(wake, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                wake.run(); // the interface is closing: wake the takers now rather than never
            }
        }

        /**
         * Whether this thread may wait for the application: not on the timer thread (a store with
         * clock threading drains there) nor on the receive thread (one with io threading drains
         * there, and waiting would stop every frame behind it).
         */
        private boolean mayWait() {
            return RealTimerService.mayWait(timers) && !(receiveExecutor instanceof EventExecutor e && e.inEventLoop());
        }

        @Override
        public boolean deliver(OverlayMessage message) {
            return inbox.offer(message, true);
        }

        @Override
        public boolean deliverFromStore(OverlayMessage message) {
            if (peerEvents.take(message)) {
                return true; // a listener's, queued apart from the application's messages
            }
            if (inbox.offer(message, false)) {
                return true;
            }
            if (waitNanos == 0 || !mayWait()) {
                return false; // a store on clock or io threading delivers on a thread that must never block
            }
            try {
                return inbox.offer(message, false, waitNanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        @Override
        public void flush() {
            if (inbox.wakeOwed()) {
                pacer.request(inbox.halfFull());
            }
        }

        @Override
        public boolean hasRoom() {
            return inbox.hasRoom();
        }

        @Override
        public long deliveryWaitNanos() {
            return mayWait() ? waitNanos : 0;
        }
    }
}
