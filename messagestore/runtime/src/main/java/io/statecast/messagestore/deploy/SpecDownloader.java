package io.statecast.messagestore.deploy;

import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.metrics.DeploymentMetrics;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.deploy.http.HttpStatusException;
import io.statecast.messagestore.deploy.http.SpecHttpClient;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's run-time deployment (blueprint §5.2.1), the {@link UnknownServiceHandler} of a
 * {@code MessageStore} ({@link ServiceHost}) configured with a spec server.
 *
 * <h2>Obtaining an unknown service</h2>
 * The store asks once per unknown service while its messages are held. The downloader fetches
 * {@code GET /services/{id}}, validates it with the store's loader, requires the ServiceID it was
 * fetched for, and installs it — which processes the held messages in order. When the server
 * answers 404 it sends a <em>Service Request message</em> (MessageType -1, the unknown ServiceID,
 * no body) unicast to the source of the message that made it ask, waits, and downloads again;
 * another failure (I/O, timeout, status) only waits. After {@link SpecServerSettings.Retry#tries()}
 * downloads it gives up: the held messages of that service are dropped and counted
 * ({@code SPEC_UNAVAILABLE}); the next message of the service starts over. A download that does
 * not validate or declares another ServiceID is refused and not retried; nothing is installed, so a
 * loaded spec is never replaced by a bad one, and the held messages expire as usual. When the store
 * trusts signing keys ({@code MessageStore.trust}), a download that is not signed by one of them is
 * refused the same way and counted apart ({@code downloadsUntrusted}). A download must carry the
 * server's SHA-256 ETag and match it; one without is a failure.
 *
 * <h2>Answering Service Requests</h2>
 * A Service Request unicast to this node for a service it has loaded makes it publish that
 * service's document ({@code PUT /services/{id}}), if {@link SpecServerSettings.Publish#onRequest()}
 * permits. A request for a service not loaded here (or whose document this node does not keep),
 * a request that is not a unicast addressed to this node, and every request when publishing is
 * not permitted are ignored and counted; the {@link PublishGate} bounds how often requests can
 * make it publish. Requests this node only relays are left to the forwarding engine.
 *
 * <h2>Publishing on load</h2>
 * With {@link SpecServerSettings.Publish#onLoad()}, every spec loaded with
 * {@code MessageStore.loadService} is published. Publishing never overwrites another version.
 *
 * <h2>Bounds</h2>
 * At most one download cycle per ServiceID at a time, and at most {@value #MAX_IN_FLIGHT}
 * ServiceIDs in cycles (more are counted as failed at once); at most {@value #MAX_QUEUED_PUBLISHES}
 * publishes waiting. Everything runs on one daemon thread that exits when idle; each HTTP exchange
 * is bounded by the settings' timeout. The documents kept for answering are those of the services
 * loaded now (one per ServiceID, replaced on reload).
 */
public final class SpecDownloader implements UnknownServiceHandler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SpecDownloader.class);
    /** Most ServiceIDs being obtained at once. */
    static final int MAX_IN_FLIGHT = 1024;
    /** Most publishes waiting for the thread. */
    static final int MAX_QUEUED_PUBLISHES = 64;
    /** Most ServiceIDs the publish gate remembers. */
    private static final int GATE_TRACKED = 4096;

    /** A document this node loaded or downloaded, with its SHA-256. */
    private record Document(String sha256Hex, byte[] bytes) {
    }

    private enum Outcome { INSTALLED, NOT_FOUND, REFUSED, UNTRUSTED, FAILED }

    private final ServiceHost store;
    private final SpecServerSettings server;
    private final LongSupplier nanoClock;
    private final HttpSpecSource http;
    private final SpecPublisher publisher;
    private final PublishGate gate;
    private final ScheduledThreadPoolExecutor executor;
    private final Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<Integer, Document> documents = new ConcurrentHashMap<>();
    private final AtomicInteger queuedPublishes = new AtomicInteger();
    private volatile boolean closed;

    private final LongAdder started = new LongAdder();
    private final LongAdder attempts = new LongAdder();
    private final LongAdder installed = new LongAdder();
    private final LongAdder notFound = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder untrusted = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder abandoned = new LongAdder();
    private final LongAdder heldDropped = new LongAdder();
    private final LongAdder requestsSent = new LongAdder();
    private final LongAdder requestsReceived = new LongAdder();
    private final LongAdder requestsAnswered = new LongAdder();
    private final LongAdder requestsIgnored = new LongAdder();
    private final LongAdder requestsThrottled = new LongAdder();
    private final LongAdder publishes = new LongAdder();
    private final LongAdder publishesAlreadyThere = new LongAdder();
    private final LongAdder publishConflicts = new LongAdder();
    private final LongAdder publishFailures = new LongAdder();

    /** A downloader for {@code store} from {@code server}; register it with {@code MessageStore.onUnknownService}. */
    public SpecDownloader(ServiceHost store, SpecServerSettings server) {
        this(store, server, System::nanoTime);
    }

    /**
     * As {@link #SpecDownloader(ServiceHost, SpecServerSettings)}, reading the publish rate limit's
     * time from {@code nanoClock} (a virtual clock in tests).
     */
    public SpecDownloader(ServiceHost store, SpecServerSettings server, LongSupplier nanoClock) {
        this.store = Objects.requireNonNull(store, "store");
        this.server = Objects.requireNonNull(server, "server");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        // one HTTP client (one connection pool, one selector thread) for downloads and publishes
        SpecHttpClient client = new SpecHttpClient(server.timeout(), server.timeout(), server.tls());
        this.http = new HttpSpecSource(server.uri().getScheme(), client, true);
        this.publisher = new SpecPublisher(client, server.token());
        if (server.token().isPresent() && server.uri().getScheme().equalsIgnoreCase("http")
                && !server.uri().getHost().equals("127.0.0.1") && !server.uri().getHost().equals("localhost")
                && !server.uri().getHost().equals("[::1]")) {
            LOG.warn("the spec server {} is plain http: the publish token travels in clear text; use https "
                    + "(docs/security.md)", server.uri());
        }
        this.gate = new PublishGate(server.publish().perService(), server.publish().maxPerMinute(), GATE_TRACKED);
        AtomicInteger n = new AtomicInteger();
        // one daemon thread that goes away when idle: a node without unknown services pays nothing
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "statecast-spec-download-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        executor.setKeepAliveTime(30, TimeUnit.SECONDS);
        executor.allowCoreThreadTimeOut(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    // ------------------------------------------------------------------ obtaining a service

    @Override
    public void serviceNeeded(int serviceId, OverlayMessage first) {
        if (serviceId < 0) {
            failed.increment();
            LOG.warn("not downloading ServiceID {}: spec server ids are 0..2147483647", serviceId);
            return;
        }
        if (inFlight.size() >= MAX_IN_FLIGHT) {
            failed.increment();
            LOG.warn("not downloading the spec of ServiceID {}: {} services are being obtained already", serviceId,
                    MAX_IN_FLIGHT);
            return;
        }
        if (!inFlight.add(serviceId)) {
            return;
        }
        started.increment();
        LogicalAddress source = first == null ? null : first.source();
        schedule(serviceId, () -> tryOnce(serviceId, 1, source), 0);
    }

    private void schedule(int serviceId, Runnable task, long delayMs) {
        try {
            executor.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            inFlight.remove(serviceId); // closed
        }
    }

    /** Try number {@code tried} (1-based) for {@code serviceId}; {@code source} gets the Service Requests. */
    private void tryOnce(int serviceId, int tried, LogicalAddress source) {
        if (closed) {
            inFlight.remove(serviceId);
            return;
        }
        if (tried > 1 && store.service(serviceId) != null) {
            inFlight.remove(serviceId); // loaded meanwhile by other means: its install released the held messages
            return;
        }
        attempts.increment();
        Outcome outcome;
        try {
            outcome = attempt(serviceId, server.serviceUri(serviceId));
        } catch (RuntimeException e) {
            LOG.warn("spec download of ServiceID {} failed", serviceId, e);
            outcome = Outcome.FAILED;
        }
        boolean retry = (outcome == Outcome.NOT_FOUND || outcome == Outcome.FAILED)
                && tried < server.retry().tries() && !closed;
        if (retry) {
            if (outcome == Outcome.NOT_FOUND) {
                requestFrom(serviceId, source);
            }
            long delay = server.retry().delayAfter(tried).toMillis();
            count(outcome);
            schedule(serviceId, () -> tryOnce(serviceId, tried + 1, source), delay);
            return;
        }
        int dropped = 0;
        if (outcome == Outcome.NOT_FOUND || outcome == Outcome.FAILED) {
            dropped = closed ? 0 : store.dropHeld(serviceId);
            LOG.warn("gave up obtaining the spec of ServiceID {} after {} tries; dropped {} held messages", serviceId,
                    tried, dropped);
        }
        // before counting: whoever sees the count may ask again and must not find this one under way
        inFlight.remove(serviceId);
        if (outcome == Outcome.NOT_FOUND || outcome == Outcome.FAILED) {
            heldDropped.add(dropped);
            abandoned.increment();
        }
        count(outcome);
    }

    private void count(Outcome outcome) {
        (switch (outcome) {
            case INSTALLED -> installed;
            case NOT_FOUND -> notFound;
            case REFUSED -> refused;
            case UNTRUSTED -> untrusted;
            case FAILED -> failed;
        }).increment();
    }

    private void requestFrom(int serviceId, LogicalAddress source) {
        if (source == null) {
            return;
        }
        try {
            if (store.sendServiceRequest(serviceId, source) > 0) {
                requestsSent.increment();
                LOG.info("spec server has no ServiceID {}: sent a Service Request to {}", serviceId, source);
            } else {
                LOG.info("spec server has no ServiceID {} and no Service Request could be sent to {}", serviceId, source);
            }
        } catch (RuntimeException e) {
            LOG.warn("could not send a Service Request for ServiceID {} to {}: {}", serviceId, source, e.toString());
        }
    }

    private Outcome attempt(int serviceId, URI uri) {
        byte[] bytes;
        try {
            bytes = http.read(uri, store.specLimits().maxBytes());
        } catch (HttpStatusException e) {
            if (e.status() == 404) {
                LOG.debug("spec server has no ServiceID {} ({})", serviceId, uri);
                return Outcome.NOT_FOUND;
            }
            LOG.warn("spec download failed: {}", e.getMessage());
            return Outcome.FAILED;
        } catch (IOException e) {
            LOG.warn("spec download of ServiceID {} failed: {}", serviceId, e.getMessage());
            return Outcome.FAILED;
        }
        java.util.Optional<String> distrust = store.distrust(bytes, "ServiceID " + serviceId);
        if (distrust.isPresent()) {
            LOG.warn("refused the spec downloaded from {}: {}", uri, distrust.get());
            return Outcome.UNTRUSTED;
        }
        ServiceSpec spec;
        try {
            spec = store.loader().load(bytes, uri.toString());
        } catch (SpecException e) {
            LOG.warn("refused the spec downloaded from {}: {}", uri, e.getMessage());
            return Outcome.REFUSED;
        }
        if (spec.service().serviceId() != serviceId) {
            LOG.warn("refused the spec downloaded from {}: it declares ServiceID {}, not {}", uri,
                    spec.service().serviceId(), serviceId);
            return Outcome.REFUSED;
        }
        try {
            store.install(spec);
        } catch (ServiceLoadException e) {
            LOG.warn("refused the spec downloaded from {}: {}", uri, e.getMessage());
            return Outcome.REFUSED;
        }
        documents.put(serviceId, new Document(spec.sha256Hex(), bytes));
        return Outcome.INSTALLED;
    }

    // ------------------------------------------------------------------ answering and publishing

    @Override
    public boolean serviceRequested(OverlayMessage request, Arrival arrival) {
        requestsReceived.increment();
        int id = request.fsm().serviceId();
        if (arrival != Arrival.DELIVERED || request.mode() != DeliveryMode.UNICAST) {
            requestsIgnored.increment();
            LOG.debug("ignored a {} Service Request for ServiceID {} from {}", request.mode(), id, request.source());
            return false;
        }
        if (!server.publish().onRequest()) {
            requestsIgnored.increment();
            LOG.debug("ignored a Service Request for ServiceID {} from {}: publishOnRequest is off", id, request.source());
            return false;
        }
        Document doc = currentDocument(id);
        if (doc == null) {
            requestsIgnored.increment();
            LOG.debug("ignored a Service Request for ServiceID {} from {}: not loaded here", id, request.source());
            return false;
        }
        if (gate.admit(id, nanoClock.getAsLong()) != PublishGate.Decision.ADMIT) {
            requestsThrottled.increment();
            return false;
        }
        if (!enqueuePublish(id, doc, true)) {
            gate.failed(id);
            requestsThrottled.increment();
            return false;
        }
        LOG.info("publishing ServiceID {} in answer to a Service Request from {}", id, request.source());
        return true;
    }

    /** The kept document of the service loaded now under {@code id}, or null. */
    private Document currentDocument(int id) {
        ServiceRuntime rt = store.service(id);
        Document doc = documents.get(id);
        return rt == null || doc == null || !doc.sha256Hex().equals(rt.spec().sha256Hex()) ? null : doc;
    }

    @Override
    public void serviceLoaded(ServiceSpec spec, byte[] document) {
        int id = spec.service().serviceId();
        Document doc = new Document(spec.sha256Hex(), document.clone());
        documents.put(id, doc);
        if (server.publish().onLoad() && !enqueuePublish(id, doc, false)) {
            publishFailures.increment();
            LOG.warn("not publishing ServiceID {} on load: {} publishes are waiting already", id, MAX_QUEUED_PUBLISHES);
        }
    }

    private boolean enqueuePublish(int id, Document doc, boolean answering) {
        if (closed || queuedPublishes.incrementAndGet() > MAX_QUEUED_PUBLISHES) {
            queuedPublishes.decrementAndGet();
            return false;
        }
        try {
            executor.execute(() -> {
                queuedPublishes.decrementAndGet();
                publish(id, doc, answering);
            });
            return true;
        } catch (RejectedExecutionException e) {
            queuedPublishes.decrementAndGet();
            return false;
        }
    }

    private void publish(int id, Document doc, boolean answering) {
        URI uri = server.serviceUri(id);
        SpecPublisher.Result r = publisher.publish(uri, doc.bytes(), doc.sha256Hex());
        switch (r.outcome()) {
            case STORED -> {
                publishes.increment();
                LOG.info("published ServiceID {} to {}", id, uri);
            }
            case ALREADY_THERE -> {
                publishesAlreadyThere.increment();
                LOG.info("ServiceID {} is on {} already, identical", id, uri);
            }
            case CONFLICT -> {
                publishConflicts.increment();
                LOG.warn("not publishing ServiceID {}: {} holds another version ({}); delete it there to replace it",
                        id, uri, r.detail());
            }
            case FAILED -> {
                publishFailures.increment();
                if (answering) {
                    gate.failed(id);
                }
                LOG.warn("publishing ServiceID {} failed: {}", id, r.detail());
            }
        }
        if (answering && (r.outcome() == SpecPublisher.Outcome.STORED || r.outcome() == SpecPublisher.Outcome.ALREADY_THERE)) {
            requestsAnswered.increment();
        }
    }

    // ------------------------------------------------------------------ state

    @Override
    public DeploymentMetrics metrics() {
        return new DeploymentMetrics(started.sum(), attempts.sum(), installed.sum(), notFound.sum(), refused.sum(),
                untrusted.sum(), failed.sum(), abandoned.sum(), heldDropped.sum(), requestsSent.sum(), requestsReceived.sum(),
                requestsAnswered.sum(), requestsIgnored.sum(), requestsThrottled.sum(), publishes.sum(),
                publishesAlreadyThere.sum(), publishConflicts.sum(), publishFailures.sum());
    }

    /** The spec server. */
    public SpecServerSettings server() {
        return server;
    }

    @Override
    public void storeClosed() {
        close();
    }

    /** Stops: retries and queued work are dropped; an exchange under way finishes (bounded by the timeout). */
    @Override
    public void close() {
        closed = true;
        executor.shutdown();
    }
}
