package io.statecast.overlay.socket;

import io.statecast.overlay.logging.RateLimitedLog;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket's peer-event listeners ({@link OverlaySocket#onPeerEvent}): a store delivery that is
 * a peer event of a registered service is taken here instead of the application's message queue,
 * queued in a bounded queue of its own (so a full message queue never loses a peer's death, and
 * a flood of events never blocks the store) and handed to its listener on one thread of its own,
 * in arrival order. Data flows one way: store, socket, application.
 */
final class PeerEvents {

    /** Events waiting for their listeners; beyond it they are dropped and counted. */
    static final int QUEUE_EVENTS = 4096;

    private static final Logger LOG = LoggerFactory.getLogger(PeerEvents.class);

    private record Registration(PeerEventTypes types, Consumer<PeerEvent> listener) {
    }

    private record Pending(PeerEvent event, Consumer<PeerEvent> listener) {
    }

    private final Map<Integer, Registration> byService = new ConcurrentHashMap<>();
    private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(QUEUE_EVENTS);
    private final LongAdder dropped = new LongAdder();
    private final RateLimitedLog dropLog = RateLimitedLog.onePer(LOG, Duration.ofSeconds(10));
    private final String name;
    private final Object lifecycle = new Object();
    private Thread thread;
    private volatile boolean closed;

    PeerEvents(String name) {
        this.name = name;
    }

    /** Registers {@code listener} for {@code serviceId}'s events; one per service. */
    void register(int serviceId, PeerEventTypes types, Consumer<PeerEvent> listener) {
        synchronized (lifecycle) {
            if (closed) {
                throw new IllegalStateException("socket closed");
            }
            if (byService.putIfAbsent(serviceId, new Registration(types, listener)) != null) {
                throw new IllegalStateException("a peer-event listener for ServiceID " + serviceId + " is installed already");
            }
            if (thread == null) {
                thread = new Thread(this::run, "statecast-peer-events-" + name);
                thread.setDaemon(true);
                thread.start();
            }
        }
    }

    /**
     * Takes {@code message} if it is a peer event of a registered service: true then (queued, or
     * dropped and counted when the queue is full), false for anything else. Never blocks.
     */
    boolean take(OverlayMessage message) {
        if (byService.isEmpty()) {
            return false;
        }
        FsmExtension fsm = message.fsm();
        if (fsm == null || fsm.messageType() == FsmExtension.PAYLOAD_TYPE) {
            return false;
        }
        Registration r = byService.get(fsm.serviceId());
        if (r == null) {
            return false;
        }
        Optional<PeerEvent> e = PeerEvent.from(message, fsm.serviceId(), r.types());
        if (e.isEmpty()) {
            return false;
        }
        if (!queue.offer(new Pending(e.get(), r.listener()))) {
            dropped.increment();
            if (dropLog.allow()) {
                LOG.warn("{}: peer-event queue full ({} events): dropped {}", name, QUEUE_EVENTS, e.get());
            }
        }
        return true;
    }

    /** Events dropped because the queue was full. */
    long dropped() {
        return dropped.sum();
    }

    private void run() {
        while (!closed) {
            Pending p;
            try {
                p = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                p.listener().accept(p.event());
            } catch (RuntimeException e) {
                LOG.warn("{}: peer-event listener failed on {}: {}", name, p.event(), e.toString());
            }
        }
    }

    void close() {
        synchronized (lifecycle) {
            closed = true;
            if (thread != null) {
                thread.interrupt();
            }
        }
    }
}
