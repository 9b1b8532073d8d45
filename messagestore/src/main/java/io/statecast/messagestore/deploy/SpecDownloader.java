package io.statecast.messagestore.deploy;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.overlay.message.OverlayMessage;
import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads the spec of a service the store does not know from a spec server, on demand: the
 * {@link UnknownServiceHandler} of a {@link MessageStore}. The store asks once per unknown service
 * while its messages are held; the download runs on this downloader's own thread (the handler must
 * not block), is validated with the store's loader, must declare the ServiceID it was fetched for,
 * and is then installed — which processes the held messages in order.
 *
 * <p>A download that fails (I/O, timeout, bad ETag, too large), does not validate or declares
 * another ServiceID is refused, counted and logged; nothing is installed, so a loaded spec is never
 * replaced by a bad one, and the held messages expire as usual. A 404 (the server has no such
 * service) is counted apart. At most one download per ServiceID is under way at a time; a request
 * for a ServiceID whose download is under way is not queued again (its messages are released by
 * that download if it installs, and otherwise expire).
 */
public final class SpecDownloader implements UnknownServiceHandler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SpecDownloader.class);
    /** Most downloads waiting for the download thread; beyond it a request is counted as failed. */
    static final int MAX_QUEUED = 1024;

    /** Counters, each since creation. */
    public record Stats(long requested, long installed, long notFound, long refused, long failed) {
    }

    private final MessageStore store;
    private final SpecServerSettings server;
    private final HttpSpecSource http;
    private final ThreadPoolExecutor executor;
    private final Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
    private final LongAdder requested = new LongAdder();
    private final LongAdder installed = new LongAdder();
    private final LongAdder notFound = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder failed = new LongAdder();

    /** A downloader for {@code store} from {@code server}; register it with {@link MessageStore#onUnknownService}. */
    public SpecDownloader(MessageStore store, SpecServerSettings server) {
        this.store = Objects.requireNonNull(store, "store");
        this.server = Objects.requireNonNull(server, "server");
        this.http = new HttpSpecSource(server.uri().getScheme(), server.timeout(), server.timeout());
        AtomicInteger n = new AtomicInteger();
        // one daemon thread that goes away when idle: a node without unknown services pays nothing
        this.executor = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(MAX_QUEUED), r -> {
            Thread t = new Thread(r, "statecast-spec-download-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        executor.allowCoreThreadTimeOut(true);
    }

    @Override
    public void serviceNeeded(int serviceId, OverlayMessage first) {
        if (serviceId < 0) {
            failed.increment();
            LOG.warn("not downloading ServiceID {}: spec server ids are 0..2147483647", serviceId);
            return;
        }
        if (!inFlight.add(serviceId)) {
            return;
        }
        requested.increment();
        try {
            executor.execute(() -> download(serviceId));
        } catch (RejectedExecutionException e) {
            inFlight.remove(serviceId);
            failed.increment();
            LOG.warn("not downloading the spec of ServiceID {}: {}", serviceId,
                    executor.isShutdown() ? "the downloader is closed" : MAX_QUEUED + " downloads are waiting already");
        }
    }

    private enum Outcome { INSTALLED, NOT_FOUND, REFUSED, FAILED }

    private void download(int serviceId) {
        Outcome outcome;
        try {
            outcome = attempt(serviceId, server.serviceUri(serviceId));
        } catch (RuntimeException e) {
            LOG.warn("spec download of ServiceID {} failed", serviceId, e);
            outcome = Outcome.FAILED;
        } finally {
            // before counting: whoever sees the count may ask again and must not find this one under way
            inFlight.remove(serviceId);
        }
        (switch (outcome) {
            case INSTALLED -> installed;
            case NOT_FOUND -> notFound;
            case REFUSED -> refused;
            case FAILED -> failed;
        }).increment();
    }

    private Outcome attempt(int serviceId, URI uri) {
        byte[] bytes;
        try {
            bytes = http.read(uri, store.config().specLimits().maxBytes());
        } catch (HttpStatusException e) {
            if (e.status() == 404) {
                LOG.info("spec server has no ServiceID {} ({}); its held messages will expire", serviceId, uri);
                return Outcome.NOT_FOUND;
            }
            LOG.warn("spec download failed: {}", e.getMessage());
            return Outcome.FAILED;
        } catch (IOException e) {
            LOG.warn("spec download of ServiceID {} failed: {}", serviceId, e.getMessage());
            return Outcome.FAILED;
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
            return Outcome.INSTALLED;
        } catch (ServiceLoadException e) {
            LOG.warn("refused the spec downloaded from {}: {}", uri, e.getMessage());
            return Outcome.REFUSED;
        }
    }

    /** The counters now. */
    public Stats stats() {
        return new Stats(requested.sum(), installed.sum(), notFound.sum(), refused.sum(), failed.sum());
    }

    /** The spec server. */
    public SpecServerSettings server() {
        return server;
    }

    /** Stops taking downloads; one under way finishes (bounded by the timeout). */
    @Override
    public void close() {
        executor.shutdown();
    }
}
