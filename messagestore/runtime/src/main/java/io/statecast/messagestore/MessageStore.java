package io.statecast.messagestore;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.statecast.overlay.io.FileErrors;
import io.statecast.messagestore.deploy.ServiceLoadException;
import io.statecast.messagestore.deploy.ServiceHost;
import io.statecast.messagestore.deploy.ServiceRegistry;
import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.deploy.SpecSignatures;
import io.statecast.messagestore.deploy.TrustedKeys;
import io.statecast.messagestore.deploy.UnknownServiceHandler;
import io.statecast.messagestore.deploy.UnknownServices;
import io.statecast.messagestore.flow.InFlightCounter;
import io.statecast.messagestore.flow.SendWindow;
import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.metrics.DeploymentMeters;
import io.statecast.messagestore.metrics.ServiceMetrics;
import io.statecast.messagestore.metrics.StoreMeters;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.FlowControl;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.forward.ScratchStore;
import io.statecast.overlay.forward.ServiceMetaops;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.metrics.Meters;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.TimerService;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blueprint's <em>MessageStore</em>: runs the loaded services' instances for the messages
 * the forwarding engine hands it, and acts on the overlay only through the
 * {@link OverlayContext} primitives.
 *
 * <h2>Data path</h2>
 * {@link #receiveMessage} (any thread, never blocks): registry lookup (an immutable map); a
 * message of an unknown service is held for {@link MessageStoreConfig#unknownServiceHold()} in a
 * bounded queue, or refused if its service was quarantined ({@link UnknownServices}); otherwise it is counted against the data queue (payload messages) or the control
 * queue (all others) — both bounded per store, drop-tail, drops counted — and handed to the shard
 * its instance key hashes to. The shard finds or creates the instance (refusing a key that ended
 * recently, or one instance too many), matches the basic events and runs the instance's step.
 *
 * <h2>Threading</h2>
 * N shards, each a single-threaded agent (see {@link Shard}) that sees the store only as a
 * {@link ShardContext}, driven by a {@link ShardRunner}: a thread of its own with dedicated
 * threading ({@link ThreadRunner}), tasks of the timer service — the virtual clock in simulations —
 * with clock threading, or of the receive thread with io threading ({@link TaskRunner}). An
 * instance lives on exactly one shard, so its state needs no locks. Timers fire on the owning shard's thread: from its own timing wheel
 * (dedicated threading on the system clock) or posted into it by the overlay's timer service
 * (clock threading, virtual clocks; see {@link MessageStoreConfig#timerTick()}). Metaop queries
 * ({@link #metaops}) read the immutable registry.
 *
 * <h2>Bounding query time</h2>
 * Queries run inline on the shard thread: a hand-off to another thread per evaluation would cost
 * more than the evaluation (a few microseconds), and load-time rules already refuse what could run
 * without bound (recursion, function items, message-controlled ranges). What remains is watched:
 * each evaluation leaves a ticket (service, start time, thread) that a watchdog thread checks every
 * quarter of the limit ({@code QueryLimits.evaluationTimeout}, default 100 ms). An evaluation
 * running past the limit becomes a suspect; once its thread has burnt another limit's worth of
 * CPU time, its service is <em>quarantined</em> — unloaded, its instances ended, its messages
 * refused, counted and logged, and the same spec bytes refused if loaded again — and its shard
 * moves to a fresh thread at once, so the other services on that shard go on; the stuck thread
 * finishes the query on its own and exits without touching the shard again. CPU time rather than
 * wall time decides, so an overloaded machine or a long GC pause does not pass for a runaway
 * query. The first evaluation with a freshly loaded evaluator gets the compile-time limit (class
 * loading and JIT in a cold JVM). With clock threading (tests, simulations) there is no watchdog:
 * the thread's CPU time is read around each evaluation instead (about a microsecond each), and an
 * evaluation over the limit quarantines its service when it returns. Shard threads have the query
 * workers' large stack, so accepted deep expressions do not overflow; a stack overflow quarantines
 * too.
 *
 * <h2>Tombstones</h2>
 * A message-scope instance that ends (terminate, final state, a limit of its machine, idle) leaves
 * its key in its shard's tombstone set for {@code tombstoneTtlMs}; a message for that key in that
 * time is dropped ({@link DropReason#TERMINATED_INSTANCE}) instead of starting the instance again
 * — a late duplicate payload must not reach the application twice. The set is bounded; when full the
 * oldest key is forgotten (counted). Flow-scope instances leave no tombstone: a new message from
 * the source starts a new flow.
 */
public final class MessageStore implements MessageStorePort, ServiceHost {

    private static final Logger LOG = LoggerFactory.getLogger(MessageStore.class);

    private final MessageStoreConfig config;
    private final SpecLoader loader;
    private final boolean ownsLoader;
    private final SpecResolver resolver;
    private final ServiceRegistry registry = new ServiceRegistry();
    private final Counters node = new Counters();
    private final AtomicInteger dataBacklog = new AtomicInteger();
    private final AtomicInteger controlBacklog = new AtomicInteger();
    private final AtomicInteger live = new AtomicInteger();
    /** The flow control: own messages in flight per ServiceID, the send window, room for instances. */
    private final SendWindow sendWindow;
    private final LongAdder quarantines = new LongAdder();
    private final LongAdder abandonedThreads = new LongAdder();
    /** Messages of services not loaded, held or refused (quarantine); the deployment handler. */
    private final UnknownServices unknown;
    private final WarmStart warmStart;
    /** A scratch twin of another store (receive-path warm-up): loads quietly. */
    private final boolean scratch;
    private final Object lifecycle = new Object();
    /** Keys whose signatures specs from the network need; null: no signature needed. */
    private volatile TrustedKeys trustedKeys;
    private final LongAdder untrustedSpecs = new LongAdder();
    private volatile OverlayContext context;
    private volatile Shard[] shards;
    private volatile boolean closed;
    private ScheduledExecutorService watchdog;
    /** The threading the shards use, set by {@link #open} ({@link #threading()}). */
    private volatile MessageStoreConfig.Threading threading;
    private TimerService.Timer sweepTimer;
    /** The socket's meters once {@link #open} bound them ({@link #bindMeters}), else {@code null}. */
    private volatile StoreMeters meters;
    /** What the shards see of this store. */
    private final ShardContext shardContext = new ShardSide();

    /** A store with {@code config}, loading specs with its own {@link SpecLoader}. */
    public MessageStore(MessageStoreConfig config) {
        this(config, new SpecLoader(config.specLimits()), true, SpecResolver.defaults());
    }

    /**
     * A store loading specs with {@code loader} (not closed by the store) and reading spec URIs
     * with {@code resolver}.
     */
    public MessageStore(MessageStoreConfig config, SpecLoader loader, SpecResolver resolver) {
        this(config, loader, false, resolver);
    }

    private MessageStore(MessageStoreConfig config, SpecLoader loader, boolean ownsLoader, SpecResolver resolver) {
        this(config, loader, ownsLoader, resolver, false);
    }

    private MessageStore(MessageStoreConfig config, SpecLoader loader, boolean ownsLoader, SpecResolver resolver,
            boolean scratch) {
        this.scratch = scratch;
        this.config = Objects.requireNonNull(config, "config");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.ownsLoader = ownsLoader;
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.unknown = new UnknownServices(config.unknownServiceMessages(), config.unknownServiceHold().toNanos(), node,
                new UnknownServices.Store() {
                    @Override
                    public ServiceRuntime service(int serviceId) {
                        return registry.get(serviceId);
                    }

                    @Override
                    public boolean accept(ServiceRuntime service, OverlayMessage message, Arrival arrival) {
                        return MessageStore.this.accept(service, message, arrival);
                    }

                    @Override
                    public TimerService timers() {
                        return context.timers();
                    }
                });
        this.warmStart = new WarmStart(config, node);
        this.sendWindow = new SendWindow(this::declaresInFlight, this::inFlightLimit, this::instancesClaimed,
                config.instances().maxLiveInstances());
    }

    /** The configuration. */
    public MessageStoreConfig config() {
        return config;
    }

    /** The limits on the specs this store loads ({@link MessageStoreConfig#specLimits()}). */
    @Override
    public SpecLimits specLimits() {
        return config.specLimits();
    }

    /** The loader that validates every spec this store loads (for sources that fetch bytes themselves). */
    @Override
    public SpecLoader loader() {
        return loader;
    }

    /** The resolver reading {@link #loadService(URI)} URIs; register more schemes on it. */
    public SpecResolver resolver() {
        return resolver;
    }

    /**
     * Tells {@code handler} about the first held message of each unknown service, hands it the
     * Service Request messages (MessageType -1) and the specs {@link #loadService} loads, and shows
     * its counters in {@link #metrics()}.
     */
    public void onUnknownService(UnknownServiceHandler handler) {
        unknown.handler(handler);
    }

    /**
     * From now on, specs this store reads from the network — downloaded from the spec server, or
     * loaded from an URI whose scheme is neither {@code file} nor {@code classpath} — must be
     * signed by one of {@code keys} ({@link SpecSignatures}); others are refused and counted
     * ({@link #untrustedSpecs()}), and what is loaded stays loaded. Local files and the classpath
     * are the node's own configuration and are not checked.
     */
    public void trust(TrustedKeys keys) {
        this.trustedKeys = Objects.requireNonNull(keys, "keys");
    }

    /** The keys set by {@link #trust}, if any. */
    public Optional<TrustedKeys> trustedKeys() {
        return Optional.ofNullable(trustedKeys);
    }

    /** Specs refused because they were not validly signed by a trusted key. */
    public long untrustedSpecs() {
        return untrustedSpecs.sum();
    }

    /**
     * Why the store would not trust {@code document} read from the network, or empty when it
     * trusts it (it is validly signed by a trusted key, or the store trusts no keys). A refusal
     * is counted in {@link #untrustedSpecs()}.
     *
     * @param source names the document in the reason
     */
    @Override
    public Optional<String> distrust(byte[] document, String source) {
        TrustedKeys keys = trustedKeys;
        if (keys == null) {
            return Optional.empty();
        }
        SpecSignatures.Verdict v = SpecSignatures.verify(source, document, keys, config.specLimits());
        if (v.valid()) {
            LOG.debug("{}", v.message());
            return Optional.empty();
        }
        untrustedSpecs.increment();
        return Optional.of(v.message());
    }

    // ------------------------------------------------------------------ services

    /**
     * Reads, loads, warms and installs the spec at {@code uri} ({@code file:}, {@code classpath:},
     * {@code http:}, {@code https:}, or a scheme registered on {@link #resolver()}).
     */
    public ServiceSpec loadService(URI uri) throws ServiceLoadException {
        return loadService(uri, Map.of());
    }

    /**
     * As {@link #loadService(URI)} with some of the spec's parameters overridden.
     */
    public ServiceSpec loadService(URI uri, Map<String, String> parameters) throws ServiceLoadException {
        byte[] bytes;
        try {
            bytes = resolver.read(uri, config.specLimits().maxBytes());
        } catch (IOException e) {
            throw new ServiceLoadException("cannot read " + uri + ": " + FileErrors.describe(e), e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("file") && !scheme.equals("classpath")) {
            Optional<String> why = distrust(bytes, uri.toString());
            if (why.isPresent()) {
                throw new ServiceLoadException("refused: " + why.get());
            }
        }
        ServiceSpec spec;
        try {
            spec = loader.load(bytes, uri.toString());
            if (!parameters.isEmpty()) {
                spec = spec.withParameters(parameters);
            }
        } catch (SpecException e) {
            throw new ServiceLoadException(e.getMessage(), e);
        }
        install(spec);
        unknown.serviceLoaded(spec, bytes);
        return spec;
    }

    /**
     * Installs a loaded spec: warm start (unless disabled), then it serves its ServiceID from now
     * on. A spec with the same ServiceID is replaced; its running instances finish on the old
     * spec. Held messages of the service are processed.
     *
     * @throws ServiceLoadException if these spec bytes were quarantined, or the warm start failed
     */
    @Override
    public void install(ServiceSpec spec) throws ServiceLoadException {
        int id = spec.service().serviceId();
        unknown.refuseIfQuarantined(spec);
        ServiceRuntime runtime = new ServiceRuntime(spec);
        if (config.warmStart()) {
            warmStart.run(runtime);
        }
        if (closed) {
            throw new ServiceLoadException(spec.source() + ": the store is closed");
        }
        ServiceRuntime old = registry.put(runtime);
        StoreMeters m = meters;
        if (m != null) {
            m.bindService(id, runtime.name(), runtime.counters());
        }
        unknown.installed(id);
        if (scratch) {
            LOG.debug("scratch twin: loaded {}", runtime);
        } else {
            LOG.info("loaded {} from {} ({}{}; {} of its {} action XPaths and {} of its {} composite queries compiled to Java,"
                    + " the rest on Saxon)",
                    runtime, spec.source(), spec.service().scope().label() + " scope",
                    old == null ? "" : ", replacing " + old.spec().source(), runtime.compiledPathCount(),
                    runtime.actionPathCount(), runtime.compiledQueryCount(), spec.compositeEvents().size());
        }
        if (context != null) {
            startOnDeploy(runtime);
        }
        unknown.release(runtime);
    }

    /**
     * Unloads the service with this ServiceID: its instances end (counted as expired), its
     * messages are from now on held as unknown.
     *
     * @return whether a service was loaded under this ID
     */
    public boolean unloadService(int serviceId) {
        ServiceRuntime rt = registry.remove(serviceId, null);
        if (rt == null) {
            return false;
        }
        unbindMeters(rt);
        removeEverywhere(rt, EndCause.UNLOADED);
        LOG.info("unloaded {}", rt);
        return true;
    }

    /** The loaded specs by ServiceID. */
    public Map<Integer, ServiceSpec> services() {
        Map<Integer, ServiceSpec> m = new HashMap<>();
        for (ServiceRuntime rt : registry.all()) {
            m.put(rt.serviceId(), rt.spec());
        }
        return Map.copyOf(m);
    }

    /** The runtime of a loaded service, or {@code null}. */
    @Override
    public ServiceRuntime service(int serviceId) {
        return registry.get(serviceId);
    }

    /** Quarantines {@code service} (see the class comment); idempotent. */
    void quarantine(ServiceRuntime service, String reason) {
        if (!service.quarantine(reason)) {
            return;
        }
        quarantines.increment();
        unknown.quarantined(service);
        registry.remove(service.serviceId(), service);
        unbindMeters(service);
        removeEverywhere(service, EndCause.QUARANTINED);
        LOG.warn("quarantined {} from {}: {}; its instances end and its messages are refused until a corrected spec "
                + "is loaded", service, service.spec().source(), reason);
    }

    private void removeEverywhere(ServiceRuntime rt, EndCause cause) {
        Shard[] s = shards;
        if (s != null) {
            for (Shard shard : s) {
                shard.post(() -> shard.removeService(rt, cause));
            }
        }
    }

    // ------------------------------------------------------------------ MessageStorePort

    /**
     * How the shards run once the store is open: the configured threading, except that io
     * threading becomes clock threading where the overlay offers no single receive thread on the
     * system clock ({@link OverlayContext#receiveExecutor}). {@code null} before {@link #open}.
     */
    public MessageStoreConfig.Threading threading() {
        return threading;
    }

    private static MessageStoreConfig.Threading effectiveThreading(MessageStoreConfig.Threading asked, OverlayContext overlay) {
        if (asked == MessageStoreConfig.Threading.IO
                && (overlay.receiveExecutor() == null || !(overlay.timers() instanceof RealTimerService))) {
            return MessageStoreConfig.Threading.CLOCK;
        }
        return asked;
    }

    /**
     * How this store's threads are named: {@code statecast-ms-}, or {@code statecast-ms-scratch-}
     * for a scratch twin, so that thread dumps and profiles tell the warm-up's threads apart.
     */
    String threadNamePrefix() {
        return scratch ? "statecast-ms-scratch-" : "statecast-ms-";
    }

    /**
     * A scratch twin for the receive-path warm-up ({@link ScratchTwin}): this store's
     * configuration and loaded specs, none of its state. {@code null} when no service is loaded or
     * the store is closed.
     */
    @Override
    public ScratchStore scratch() {
        List<ServiceSpec> specs = new ArrayList<>();
        for (ServiceRuntime rt : registry.all()) {
            if (!rt.quarantined()) {
                specs.add(rt.spec());
            }
        }
        if (closed || specs.isEmpty()) {
            return null;
        }
        MessageStore twin = new MessageStore(config.withWarmStart(false), loader, false, resolver, true);
        List<ServiceSpec> installed = new ArrayList<>();
        for (ServiceSpec spec : specs) {
            try {
                twin.install(spec);
                installed.add(spec);
            } catch (ServiceLoadException e) {
                LOG.debug("scratch twin without {}: {}", spec.source(), e.getMessage());
            }
        }
        return new ScratchTwin(twin, installed);
    }

    @Override
    public void open(OverlayContext overlay) {
        synchronized (lifecycle) {
            if (context != null) {
                throw new IllegalStateException("the MessageStore is open already");
            }
            if (closed) {
                throw new IllegalStateException("the MessageStore is closed");
            }
            context = Objects.requireNonNull(overlay, "overlay");
            threading = effectiveThreading(config.threading(), overlay);
            if (threading != config.threading() && !scratch) { // a scratch twin runs on the warm-up's own clock
                LOG.info("MessageStore: threading {} asked for, but the overlay has no single receive thread on the system "
                        + "clock (several interfaces, or a virtual clock); the shards run as with {}",
                        config.threading().name().toLowerCase(Locale.ROOT), threading.name().toLowerCase(Locale.ROOT));
            }
            int n = config.shards();
            int perShard = (int) Math.min(Integer.MAX_VALUE,
                    ((long) config.instances().tombstones() + n - 1) / n);
            Shard[] s = new Shard[n];
            for (int i = 0; i < n; i++) {
                s[i] = new Shard(shardContext, config, threading, i, n, perShard, threadNamePrefix() + "shard-" + i);
                s[i].start();
            }
            shards = s;
            scheduleSweep();
            for (ServiceRuntime rt : registry.all()) {
                startOnDeploy(rt);
            }
            if (threading == MessageStoreConfig.Threading.DEDICATED) {
                long period = Math.max(1, config.evaluationLimit().toMillis() / 4);
                watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, threadNamePrefix() + "watchdog");
                    t.setDaemon(true);
                    return t;
                });
                watchdog.scheduleAtFixedRate(this::watch, period, period, TimeUnit.MILLISECONDS);
            }
            overlay.meterRegistry().ifPresent(this::bindMeters);
        }
    }

    private void watch() {
        long now = System.nanoTime();
        for (Shard s : shards) {
            try {
                if (s.checkOverrun(now)) {
                    abandonedThreads.increment();
                }
            } catch (RuntimeException e) {
                LOG.warn("watchdog failed on shard {}", s.index(), e);
            }
        }
    }

    private void scheduleSweep() {
        long idleMs = config.instances().idleTimeoutMs();
        long period = Math.max(100, Math.min(10_000, idleMs / 4));
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            sweepTimer = context.timers().schedule(period, TimeUnit.MILLISECONDS, () -> {
                for (Shard s : shards) {
                    s.post(s::sweep);
                }
                scheduleSweep();
            });
        }
    }

    /**
     * The loaded service's metaops, made when it loaded ({@link ServiceRuntime#metaops()}); for a
     * service not loaded (or quarantined) {@link ServiceMetaops#DEFAULTS}, so that relayed messages
     * of it still come here, to be held or to answer a Service Request.
     */
    @Override
    public ServiceMetaops metaops(int serviceId) {
        ServiceRuntime rt = registry.get(serviceId);
        return rt == null ? ServiceMetaops.DEFAULTS : rt.metaops();
    }

    @Override
    public boolean receiveMessage(OverlayMessage message, Arrival arrival) {
        FsmExtension fsm = message.fsm();
        if (fsm == null) {
            node.drop(DropReason.INTERNAL_ERROR);
            return false;
        }
        if (closed || context == null) {
            node.drop(DropReason.CLOSED);
            return false;
        }
        if (fsm.messageType() == FsmExtension.SERVICE_REQUEST_TYPE) {
            return serviceRequest(message, arrival);
        }
        ServiceRuntime rt = registry.get(fsm.serviceId());
        if (rt == null) {
            return unknown.hold(message, arrival);
        }
        return accept(rt, message, arrival);
    }

    /** Handled inside the store (blueprint §5.2.1), never by a service's machine. */
    private boolean serviceRequest(OverlayMessage message, Arrival arrival) {
        if (arrival == Arrival.TRANSIT) {
            // only the destination answers; relaying nodes pass it on like any unicast
            if (metaops(message.fsm().serviceId()).forwardsItself()) {
                context.forwardMessage(message); // the engine leaves this service's messages to us
            }
            return true;
        }
        return unknown.serviceRequested(message, arrival);
    }

    /**
     * Sends a Service Request message (MessageType -1, no body) for {@code serviceId} unicast to
     * {@code destination}.
     *
     * @return substrate transmissions made; 0 when the store is not open or closed
     */
    @Override
    public int sendServiceRequest(int serviceId, LogicalAddress destination) {
        OverlayContext c = context;
        if (c == null || closed) {
            return 0;
        }
        return c.sendControlMessage(serviceId, FsmExtension.SERVICE_REQUEST_TYPE, c.newMessageId(), null,
                Route.unicast(destination));
    }

    /**
     * Drops every message held for {@code serviceId}, counted as
     * {@link DropReason#SPEC_UNAVAILABLE}: its spec could not be obtained.
     *
     * @return how many were dropped
     */
    @Override
    public int dropHeld(int serviceId) {
        return unknown.dropHeld(serviceId);
    }

    /**
     * A spec with {@code <Start>} is deployed (installed on the open store, or the store opened
     * with it): its node's own instance is created and started on its shard.
     */
    private void startOnDeploy(ServiceRuntime rt) {
        if (!rt.spec().service().startsOnDeploy() || scratch || closed) {
            return; // a scratch twin only warms up the receive path: no loops of its own
        }
        Shard[] s = shards;
        if (s == null) {
            return; // open() is making the shards: it starts every installed spec once they exist
        }
        InstanceKey key = InstanceKey.ofNode(rt.scope(), rt.serviceId(), context.localAddress());
        Shard shard = s[Shard.indexOf(key, s.length)];
        shard.post(() -> shard.startOnDeploy(rt, key));
    }

    /** Counts the message against its queue and hands it to its shard. */
    private boolean accept(ServiceRuntime rt, OverlayMessage message, Arrival arrival) {
        if (rt.quarantined()) {
            drop(DropReason.QUARANTINED, rt);
            return false;
        }
        boolean data = message.fsm().messageType() == FsmExtension.PAYLOAD_TYPE;
        AtomicInteger backlog = data ? dataBacklog : controlBacklog;
        int capacity = data ? config.dataQueueCapacity() : config.controlQueueCapacity();
        if (backlog.incrementAndGet() > capacity) {
            backlog.decrementAndGet();
            drop(data ? DropReason.DATA_QUEUE_FULL : DropReason.CONTROL_QUEUE_FULL, rt);
            return false;
        }
        InstanceKey key = arrivalKey(rt, message);
        // counted before the shard sees it, so the send window never misses a sender's messages
        // still queued; the instance adopts the count (Shard.process)
        boolean own = data && arrival == Arrival.FROM_APPLICATION && rt.spec().declaresInFlight();
        if (own) {
            sendWindow.counter(rt.serviceId()).add();
        }
        (key != null ? shardOf(key) : keyingShard(rt, message)).offer(new Inbound(message, arrival, rt, key, data, own,
                context.timers().nanoTime()));
        return true;
    }

    /** The key of a message as it arrives ({@link Inbound#arrivalKey}). */
    private InstanceKey arrivalKey(ServiceRuntime rt, OverlayMessage message) {
        return Inbound.arrivalKey(rt, message, context.localAddress());
    }

    /** Where a message without a key yet is keyed: by source, so one sender's messages stay in order. */
    private Shard keyingShard(ServiceRuntime rt, OverlayMessage message) {
        return shardOf(InstanceKey.ofFlow(rt.serviceId(), message.source()));
    }

    private Shard shardOf(InstanceKey key) {
        Shard[] s = shards;
        return s[Shard.indexOf(key, s.length)];
    }

    /**
     * Whether every shard's runner is idle with nothing queued: a test stepping a virtual clock
     * under dedicated threading waits for this between steps.
     */
    boolean shardsIdle() {
        Shard[] s = shards;
        if (s != null) {
            for (Shard shard : s) {
                if (!shard.idle()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Messages waiting for a shard now, data and control. */
    int backlog() {
        return dataBacklog.get() + controlBacklog.get();
    }

    private void drop(DropReason reason, ServiceRuntime service) {
        node.drop(reason);
        if (service != null) {
            service.counters().drop(reason);
        }
    }

    /** What a shard sees of this store ({@link ShardContext}); any shard's thread. */
    private final class ShardSide implements ShardContext {

        @Override
        public OverlayContext overlay() {
            return context;
        }

        @Override
        public Counters nodeCounters() {
            return node;
        }

        @Override
        public ServiceRuntime service(int serviceId) {
            return registry.get(serviceId);
        }

        @Override
        public boolean closed() {
            return closed;
        }

        @Override
        public void drop(DropReason reason, ServiceRuntime service) {
            MessageStore.this.drop(reason, service);
        }

        @Override
        public void taken(Inbound in) {
            (in.data() ? dataBacklog : controlBacklog).decrementAndGet();
        }

        @Override
        public void route(Inbound in) {
            (in.data() ? dataBacklog : controlBacklog).incrementAndGet();
            (in.key() != null ? shardOf(in.key()) : keyingShard(in.service(), in.message())).offer(in);
        }

        @Override
        public boolean reserveInstance() {
            int max = config.instances().maxLiveInstances();
            int n;
            do {
                n = live.get();
                if (n >= max) {
                    return false;
                }
            } while (!live.compareAndSet(n, n + 1));
            return true;
        }

        @Override
        public void releaseInstance() {
            live.decrementAndGet();
        }

        @Override
        public void quarantine(ServiceRuntime service, String reason) {
            MessageStore.this.quarantine(service, reason);
        }

        @Override
        public InFlightCounter inFlightCounter(int serviceId) {
            return sendWindow.counter(serviceId);
        }
    }

    // ------------------------------------------------------------------ metrics

    /**
     * Data messages waiting for a shard now — {@code metrics().dataBacklog()} without building the
     * snapshot, cheap enough for a sender to read before every message (ttcp's backpressure).
     */
    public int dataBacklog() {
        return dataBacklog.get();
    }

    /**
     * Live service instances now, against {@code instances.maxLiveInstances}: cheap enough for a
     * sender to read before every message, so it can wait instead of having its own messages
     * refused ({@code INSTANCE_LIMIT}) while finished instances linger.
     */
    public int liveInstances() {
        return live.get();
    }

    /**
     * The store's flow control: its counts of the application's own messages in flight, the send
     * window over them, and room for instances ({@link SendWindow}).
     */
    public SendWindow sendWindow() {
        return sendWindow;
    }

    /**
     * The store's {@link #sendWindow()}, turned on with the socket's {@code overlay.sendWindow}
     * and waiting on the clock of the context the store was opened with.
     *
     * @throws IllegalStateException if the store was not opened
     */
    @Override
    public FlowControl flowControl(OverlayConfig.SendWindow settings) {
        OverlayContext c = context;
        if (c == null) {
            throw new IllegalStateException("the MessageStore was not opened: open it before asking for its flow control");
        }
        return sendWindow.configure(settings, c.timers());
    }

    /** Whether the loaded service {@code serviceId} counts its own messages in flight ({@code <InFlight>}, {@code <InFlightCount>}). */
    private boolean declaresInFlight(int serviceId) {
        ServiceRuntime rt = registry.get(serviceId);
        return rt != null && rt.spec().declaresInFlight();
    }

    /** The most own messages in flight the loaded service's spec allows ({@link ServiceSpec#inFlightLimit()}). */
    private int inFlightLimit(int serviceId) {
        ServiceRuntime rt = registry.get(serviceId);
        return rt == null ? Integer.MAX_VALUE : rt.spec().inFlightLimit();
    }

    /**
     * Instances live or possibly about to be created: live ones, every message waiting for a
     * shard (a control message may start an instance too) and one message per shard (taken off
     * its queue, its instance not yet created) — what must stay below
     * {@code instances.maxLiveInstances} for one more message from the application to find room.
     */
    private long instancesClaimed() {
        return (long) live.get() + dataBacklog.get() + controlBacklog.get() + config.shards();
    }

    /**
     * Binds the store's counters as meters ({@code statecast.store.node.*}), every loaded
     * service's ({@code statecast.store.*{service, service_id}}) and, as they load, those of
     * services loaded later; see {@code docs/metrics.md}. Called by {@link #open} with the
     * socket's registry ({@link OverlayContext#meterRegistry}), once.
     */
    private void bindMeters(MeterRegistry meterRegistry) {
        MeterRegistry r = meterRegistry;
        StoreMeters m = new StoreMeters(r, node);
        Meters.gauge(r, "store.node.backlog", "messages waiting for a shard now, by queue", this,
                s -> s.dataBacklog.get(), Tags.of("queue", "data"));
        Meters.gauge(r, "store.node.backlog", "messages waiting for a shard now, by queue", this,
                s -> s.controlBacklog.get(), Tags.of("queue", "control"));
        Meters.gauge(r, "store.node.held.unknown", "messages of services not loaded, held now", this,
                s -> s.unknown.held(), Tags.empty());
        Meters.counter(r, "store.node.quarantines", "services quarantined", this, s -> s.quarantines.sum(),
                Tags.empty());
        Meters.counter(r, "store.node.abandoned.threads", "shard threads the watchdog gave up on", this,
                s -> s.abandonedThreads.sum(), Tags.empty());
        DeploymentMeters.bind(r, this, s -> s.unknown.metrics());
        meters = m;
        for (ServiceRuntime rt : registry.all()) {
            m.bindService(rt.serviceId(), rt.name(), rt.counters());
        }
    }

    private void unbindMeters(ServiceRuntime rt) {
        StoreMeters m = meters;
        if (m != null && registry.get(rt.serviceId()) == null) {
            m.unbindService(rt.serviceId());
        }
    }

    /** A snapshot of the node's and every loaded service's metrics. */
    public MessageStoreMetrics metrics() {
        List<ServiceMetrics> services = new ArrayList<>();
        for (ServiceRuntime rt : registry.all()) {
            services.add(new ServiceMetrics(rt.serviceId(), rt.name(), rt.spec().sha256Hex(), rt.quarantineReason(),
                    rt.counters().snapshot()));
        }
        services.sort(Comparator.comparingInt(ServiceMetrics::serviceId));
        return new MessageStoreMetrics(node.snapshot(), dataBacklog.get(), controlBacklog.get(), unknown.held(),
                quarantines.sum(), abandonedThreads.sum(), services, unknown.metrics());
    }

    // ------------------------------------------------------------------ close

    @Override
    public void close() {
        Shard[] s;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (sweepTimer != null) {
                sweepTimer.cancel();
            }
            if (watchdog != null) {
                watchdog.shutdownNow();
            }
            s = shards;
        }
        unknown.close();
        if (s != null) {
            for (Shard shard : s) {
                shard.post(shard::removeAll);
                shard.shutdown();
            }
            for (Shard shard : s) {
                try {
                    if (!shard.awaitTermination(1, TimeUnit.SECONDS)) {
                        LOG.warn("shard {} did not stop within 1 s", shard.index());
                    } else if (threading == MessageStoreConfig.Threading.DEDICATED) {
                        shard.runLeftovers(); // its thread is gone: this thread may touch its state now
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        warmStart.close();
        if (ownsLoader) {
            loader.close();
        }
    }
}
