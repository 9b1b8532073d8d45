package io.statecast.messagestore.deploy;

import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.metrics.DeploymentMetrics;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.TimerService;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's messages of services it does not run: held while a spec may come, refused when the
 * service was quarantined. A message of a service that is not loaded waits in a bounded queue
 * ({@link PendingMessages}) for the store's {@code unknownServiceHold}, counted when the queue is
 * full or the wait ends; the first one held for a ServiceID tells the {@link UnknownServiceHandler}
 * (which may fetch and install the spec), and an installed spec takes its held messages
 * ({@link #release}). A quarantined spec's ServiceID and SHA-256 are remembered: its messages are
 * refused until another spec is installed under that ID, and the same bytes are refused if loaded
 * again ({@link #refuseIfQuarantined}). Thread-safe: messages arrive on I/O threads.
 */
public final class UnknownServices {

    private static final Logger LOG = LoggerFactory.getLogger(UnknownServices.class);

    /** What the store lends this: its registry, its queues, its clock. */
    public interface Store {

        /** The service loaded under {@code serviceId} now, or {@code null}. */
        ServiceRuntime service(int serviceId);

        /**
         * Hands a held message to {@code service} as if it arrived now.
         *
         * @return false when the store refused it (counted by the store)
         */
        boolean accept(ServiceRuntime service, OverlayMessage message, Arrival arrival);

        /** The overlay's timer service (the store is open). */
        TimerService timers();
    }

    private final Store store;
    private final Counters node;
    private final PendingMessages pending;
    /** ServiceID → SHA-256 of the spec quarantined under it, until another spec is installed there. */
    private final Map<Integer, String> quarantinedSpecs = new HashMap<>();
    private volatile UnknownServiceHandler handler = UnknownServiceHandler.NONE;
    private final Object lock = new Object();
    private TimerService.Timer expiry;
    private boolean closed;

    /**
     * @param capacity  most messages held at once (0: none)
     * @param holdNanos how long a message waits for its spec
     * @param node      the store's node counters, where drops are counted
     */
    public UnknownServices(int capacity, long holdNanos, Counters node, Store store) {
        this.pending = new PendingMessages(capacity, holdNanos);
        this.node = Objects.requireNonNull(node, "node");
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Tells {@code h} about unknown services from now on (see {@link UnknownServiceHandler}). */
    public void handler(UnknownServiceHandler h) {
        this.handler = Objects.requireNonNull(h, "handler");
    }

    /**
     * A message of a service the store has not loaded: refused if the service was quarantined or
     * the queue is full (counted), else held; released at once if the service was loaded meanwhile.
     *
     * @return whether it was held (or released)
     */
    public boolean hold(OverlayMessage message, Arrival arrival) {
        int id = message.fsm().serviceId();
        boolean quarantined;
        synchronized (quarantinedSpecs) {
            quarantined = quarantinedSpecs.containsKey(id);
        }
        if (quarantined) {
            node.drop(DropReason.QUARANTINED);
            return false;
        }
        PendingMessages.Result r = pending.hold(message, arrival, store.timers().nanoTime());
        if (r == PendingMessages.Result.FULL) {
            node.drop(DropReason.UNKNOWN_SERVICE_QUEUE_FULL);
            return false;
        }
        ServiceRuntime now = store.service(id);
        if (now != null) {
            // loaded while we were holding: release at once (install may have run its release already)
            for (PendingMessages.Held h : pending.release(id)) {
                store.accept(now, h.message(), h.arrival());
            }
            return true;
        }
        scheduleExpiry();
        if (r == PendingMessages.Result.HELD_FIRST) {
            try {
                handler.serviceNeeded(id, message);
            } catch (RuntimeException e) {
                LOG.warn("unknown-service handler failed for ServiceID {}: {}", id, e.toString());
            }
        }
        return true;
    }

    private void scheduleExpiry() {
        synchronized (lock) {
            if (expiry != null || closed) {
                return;
            }
            long delay = Math.max(1, TimeUnit.NANOSECONDS.toMillis(pending.holdNanos()) / 4);
            expiry = store.timers().schedule(delay, TimeUnit.MILLISECONDS, this::expire);
        }
    }

    private void expire() {
        synchronized (lock) {
            expiry = null;
        }
        pending.expire(store.timers().nanoTime(), h -> node.drop(DropReason.UNKNOWN_SERVICE_EXPIRED));
        if (pending.size() > 0) {
            scheduleExpiry();
        }
    }

    /**
     * A Service Request message (MessageType -1) that reached the store as a target: the handler's
     * to act on.
     *
     * @return whether the handler took it; otherwise it is counted as dropped
     */
    public boolean serviceRequested(OverlayMessage request, Arrival arrival) {
        boolean taken;
        try {
            taken = handler.serviceRequested(request, arrival);
        } catch (RuntimeException e) {
            LOG.warn("deployment handler failed on a Service Request for ServiceID {}: {}", request.fsm().serviceId(),
                    e.toString());
            taken = false;
        }
        if (!taken) {
            node.drop(DropReason.SERVICE_REQUEST);
        }
        return taken;
    }

    /** A spec was loaded from {@code document} and installed: the handler may publish it. */
    public void serviceLoaded(ServiceSpec spec, byte[] document) {
        try {
            handler.serviceLoaded(spec, document);
        } catch (RuntimeException e) {
            LOG.warn("deployment handler failed on the load of {}: {}", spec.source(), e.toString());
        }
    }

    /**
     * Refuses {@code spec} if these very bytes were quarantined under its ServiceID.
     *
     * @throws ServiceLoadException naming the spec and its SHA-256
     */
    public void refuseIfQuarantined(ServiceSpec spec) throws ServiceLoadException {
        int id = spec.service().serviceId();
        synchronized (quarantinedSpecs) {
            if (spec.sha256Hex().equals(quarantinedSpecs.get(id))) {
                throw new ServiceLoadException(spec.source() + ": this spec (sha256 " + spec.sha256Hex()
                        + ") was quarantined; load a corrected one");
            }
        }
    }

    /** {@code service} was quarantined: its messages are refused, its spec too, until another is installed. */
    public void quarantined(ServiceRuntime service) {
        synchronized (quarantinedSpecs) {
            quarantinedSpecs.put(service.serviceId(), service.spec().sha256Hex());
        }
    }

    /** A spec was installed under {@code serviceId}: what was quarantined there is forgotten. */
    public void installed(int serviceId) {
        synchronized (quarantinedSpecs) {
            quarantinedSpecs.remove(serviceId);
        }
    }

    /** Hands the messages held for {@code service}'s ServiceID to it, in the order they came. */
    public void release(ServiceRuntime service) {
        for (PendingMessages.Held h : pending.release(service.serviceId())) {
            if (!store.accept(service, h.message(), h.arrival())) {
                LOG.debug("held message of {} dropped on release", service);
            }
        }
    }

    /**
     * Drops every message held for {@code serviceId}, counted as
     * {@link DropReason#SPEC_UNAVAILABLE}: its spec could not be obtained.
     *
     * @return how many were dropped
     */
    public int dropHeld(int serviceId) {
        List<PendingMessages.Held> dropped = pending.release(serviceId);
        dropped.forEach(h -> node.drop(DropReason.SPEC_UNAVAILABLE));
        return dropped.size();
    }

    /** Messages held now. */
    public int held() {
        return pending.size();
    }

    /** The handler's counters. */
    public DeploymentMetrics metrics() {
        return handler.metrics();
    }

    /** The store closes: the held messages are dropped (counted), the handler stops. */
    public void close() {
        synchronized (lock) {
            closed = true;
            if (expiry != null) {
                expiry.cancel();
            }
        }
        pending.clear(h -> node.drop(DropReason.CLOSED));
        handler.storeClosed();
    }
}
