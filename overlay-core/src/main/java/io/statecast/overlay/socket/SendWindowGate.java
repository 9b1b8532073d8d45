package io.statecast.overlay.socket;

import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.TimerService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Where {@link OverlaySocket#send} waits for room in the send window ({@link OverlayConfig.SendWindow}).
 * The common case is two reads (the store's in-flight counter and its instance room), one
 * compare-and-set and no wait;
 * when full, the sender parks for short, growing intervals (acknowledgements arrive on other
 * threads, and a notification per acknowledgement would cost every receive path more than a
 * sender's occasional poll).
 *
 * <p>With {@link OverlayConfig.SendWindow#aimd()} the limit is each service's {@link AimdWindow}
 * instead of the configured window (never above it).
 *
 * <p>A sender that finds room reserves it until the store has counted its message
 * ({@link #release}): between the check and the store's count, senders on other threads see the
 * reservation, so concurrent senders cannot together pass the window.
 *
 * <p>Waits only where {@link RealTimerService#mayWait} allows it (the system clock, not its timer
 * thread, which runs the timers the acknowledgements depend on). Elsewhere the window does not
 * apply.
 */
final class SendWindowGate {

    private static final long FIRST_PARK_NANOS = 10_000;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private final OverlayConfig.SendWindow settings;
    private final TimerService timers;
    private final LongAdder waits = new LongAdder();
    private final LongAdder waitedNanos = new LongAdder();
    private final LongAdder failures = new LongAdder();
    /** The AIMD state of each windowed service sent so far (empty without AIMD). */
    private final ConcurrentHashMap<Integer, AimdWindow> aimd = new ConcurrentHashMap<>();
    /** Per windowed service, the sends that found room and whose messages the store has not counted yet. */
    private final ConcurrentHashMap<Integer, AtomicInteger> reserved = new ConcurrentHashMap<>();

    SendWindowGate(OverlayConfig.SendWindow settings, TimerService timers) {
        this.settings = settings;
        this.timers = timers;
    }

    /**
     * Returns once fewer than {@code window} own messages of {@code serviceId} are in flight or
     * reserved and the store has room for one more instance, at once if the service is not
     * windowed. When it returns true it has reserved a place in the window: call
     * {@link #release} once the message went to the store (or failed to).
     *
     * @return whether a place was reserved
     * @throws SendWindowException after {@code maxWaitMs}, or if interrupted (flag set again)
     */
    boolean await(MessageStorePort store, int serviceId) {
        if (!settings.enabled() || !store.declaresInFlight(serviceId)) {
            return false;
        }
        AtomicInteger held = reserved.get(serviceId);
        if (held == null) {
            held = reserved.computeIfAbsent(serviceId, id -> new AtomicInteger());
        }
        if (tryReserve(store, serviceId, held)) {
            return true;
        }
        if (!RealTimerService.mayWait(timers)) {
            return false;
        }
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(settings.maxWaitMs());
        long park = FIRST_PARK_NANOS;
        waits.increment();
        try {
            while (!tryReserve(store, serviceId, held)) {
                long now = System.nanoTime();
                if (now - deadline >= 0) {
                    throw failed(store, serviceId, now - start, false);
                }
                LockSupport.parkNanos(this, Math.min(park, deadline - now));
                park = Math.min(MAX_PARK_NANOS, park * 2);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw failed(store, serviceId, System.nanoTime() - start, true);
                }
            }
        } finally {
            waitedNanos.add(System.nanoTime() - start);
        }
        return true;
    }

    /** Gives back the place {@link #await} reserved for a message of {@code serviceId}. */
    void release(int serviceId) {
        reserved.get(serviceId).decrementAndGet();
    }

    private boolean tryReserve(MessageStorePort store, int serviceId, AtomicInteger held) {
        while (true) {
            int r = held.get();
            int inFlight = store.inFlight(serviceId);
            if (inFlight + r >= limit(store, serviceId, inFlight) || !store.hasInstanceRoom()) {
                return false;
            }
            if (held.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** The configured window, or the service's AIMD window. */
    private int limit(MessageStorePort store, int serviceId, int inFlight) {
        if (!settings.aimd()) {
            return settings.window();
        }
        AimdWindow w = aimd.get(serviceId);
        if (w == null) {
            w = aimd.computeIfAbsent(serviceId, id -> new AimdWindow(settings.window(), store.ownTimeouts(id),
                    store.ownCompletions(id)));
        }
        return w.update(store.ownTimeouts(serviceId), store.ownCompletions(serviceId), inFlight);
    }

    private SendWindowException failed(MessageStorePort store, int serviceId, long waited, boolean interrupted) {
        failures.increment();
        int inFlight = store.inFlight(serviceId);
        return new SendWindowException(serviceId, limit(store, serviceId, inFlight), inFlight, store.hasInstanceRoom(),
                TimeUnit.NANOSECONDS.toMillis(waited), interrupted);
    }

    /** What the window did so far. */
    SendWindowStatistics statistics() {
        long halvings = 0;
        int smallest = settings.window();
        for (AimdWindow w : aimd.values()) {
            halvings += w.halvings();
            smallest = Math.min(smallest, w.current());
        }
        return new SendWindowStatistics(waits.sum(), waitedNanos.sum(), failures.sum(), halvings, smallest);
    }
}
