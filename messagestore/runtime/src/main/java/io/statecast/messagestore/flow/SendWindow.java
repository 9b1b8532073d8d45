package io.statecast.messagestore.flow;

import io.statecast.overlay.forward.FlowControl;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.SendWindowException;
import io.statecast.overlay.socket.SendWindowStatistics;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.TimerService;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.function.LongSupplier;

/**
 * A MessageStore's flow control: the send window ({@code overlay.sendWindow}) of every service
 * whose spec declares in-flight states, its AIMD response to congestion ({@link AimdWindow}), and
 * waiting for room in the store's live-instance limit — the one place the application's sends
 * are held back. The store reports into it (an own message accepted, an instance leaving the
 * in-flight states, a repeated timeout: {@link #counter}); the socket asks it before each send
 * ({@link FlowControl}).
 *
 * <p>The common case of a send is two reads (the service's in-flight count and the instance
 * room), one compare-and-set and no wait; when full, the sender parks for short, growing
 * intervals (acknowledgements arrive on other threads, and a notification per acknowledgement
 * would cost every receive path more than a sender's occasional poll). A sender that finds room
 * reserves it until the store has counted its message ({@link #release}): between the check and
 * the store's count, senders on other threads see the reservation, so concurrent senders cannot
 * together pass the window. Waits only where {@link RealTimerService#mayWait} allows it (the
 * system clock, not its timer thread, which runs the timers the acknowledgements depend on);
 * elsewhere the window does not hold a send back.
 *
 * <p>Until a socket configures it ({@link #configure}) the window is off: the counts are kept,
 * nothing waits. Thread-safe.
 */
public final class SendWindow implements FlowControl {

    private static final long FIRST_PARK_NANOS = 10_000;
    private static final long MAX_PARK_NANOS = 1_000_000;
    /** The window before {@link #configure}: off. */
    private static final OverlayConfig.SendWindow OFF = new OverlayConfig.SendWindow(0,
            OverlayConfig.SendWindow.DEFAULT_MAX_WAIT_MS, false);

    /** The settings and clock a socket gave (one object, so a sender reads both at once). */
    private record Setup(OverlayConfig.SendWindow settings, TimerService timers) {
    }

    /** One service's counts, reservations and AIMD state. */
    private static final class Lane {
        final InFlightCounter count = new InFlightCounter();
        /** Sends that found room and whose messages the store has not counted yet. */
        final AtomicInteger reserved = new AtomicInteger();
        /** Created at the first windowed send under AIMD, from the counts then; null before. */
        volatile AimdWindow aimd;

        AimdWindow aimd(int window) {
            AimdWindow w = aimd;
            return w != null ? w : create(window);
        }

        private synchronized AimdWindow create(int window) {
            if (aimd == null) {
                aimd = new AimdWindow(window, count.timeouts(), count.completions());
            }
            return aimd;
        }
    }

    private final IntPredicate declaresInFlight;
    private final IntUnaryOperator serviceLimit;
    private final LongSupplier instancesClaimed;
    private final int maxInstances;
    /** Per ServiceID, created on first use; entries are never removed. */
    private final ConcurrentHashMap<Integer, Lane> lanes = new ConcurrentHashMap<>();
    private final LongAdder waits = new LongAdder();
    private final LongAdder waitedNanos = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private volatile Setup setup = new Setup(OFF, null);

    /**
     * @param declaresInFlight whether a ServiceID names a loaded service whose spec declares
     *                         in-flight states (a lookup: asked per send)
     * @param instancesClaimed instances live or possibly about to be created now (live ones, and
     *                         messages not yet taken by an instance that may create one)
     * @param maxInstances     the store's live-instance limit; a send waits while
     *                         {@code instancesClaimed} has reached it
     */
    public SendWindow(IntPredicate declaresInFlight, LongSupplier instancesClaimed, int maxInstances) {
        this(declaresInFlight, id -> Integer.MAX_VALUE, instancesClaimed, maxInstances);
    }

    /**
     * @param declaresInFlight whether a ServiceID names a loaded service whose spec declares
     *                         in-flight states or an in-flight count (a lookup: asked per send)
     * @param serviceLimit     the most own messages in flight a service's spec allows
     *                         ({@code <InFlightCount limit>}; {@code Integer.MAX_VALUE}: none); the
     *                         window is the smaller of it and the socket's (a lookup: asked per send)
     * @param instancesClaimed instances live or possibly about to be created now
     * @param maxInstances     the store's live-instance limit
     */
    public SendWindow(IntPredicate declaresInFlight, IntUnaryOperator serviceLimit, LongSupplier instancesClaimed,
            int maxInstances) {
        this.declaresInFlight = Objects.requireNonNull(declaresInFlight, "declaresInFlight");
        this.serviceLimit = Objects.requireNonNull(serviceLimit, "serviceLimit");
        this.instancesClaimed = Objects.requireNonNull(instancesClaimed, "instancesClaimed");
        this.maxInstances = maxInstances;
    }

    /**
     * Turns the window on with the socket's {@code settings}, waiting on {@code timers}' clock.
     * Called once, by the socket the store is installed in ({@code MessageStorePort.flowControl}).
     *
     * @return this
     */
    public SendWindow configure(OverlayConfig.SendWindow settings, TimerService timers) {
        setup = new Setup(Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(timers, "timers"));
        return this;
    }

    // ------------------------------------------------------------------ what the store reports

    /**
     * The in-flight count of {@code serviceId}, created on first use: the store adds a message of
     * the application when it accepts it, and the instance that adopts it keeps the count in step
     * with its state (completions, repeated timeouts).
     */
    public InFlightCounter counter(int serviceId) {
        return lane(serviceId).count;
    }

    private Lane lane(int serviceId) {
        Lane l = lanes.get(serviceId);
        return l != null ? l : lanes.computeIfAbsent(serviceId, k -> new Lane());
    }

    // ------------------------------------------------------------------ what it reads

    /**
     * Messages of service {@code serviceId} that the local application sent and that are still in
     * flight: accepted by the store and not yet processed, or held by a live instance whose
     * current state is one of the spec's {@code <InFlight>} states. One atomic counter per
     * service, no scan. Always 0 for a service that declares no in-flight states.
     */
    public int inFlight(int serviceId) {
        Lane l = lanes.get(serviceId);
        return l == null ? 0 : l.count.count();
    }

    /**
     * Congestion signals of {@code serviceId} so far: own messages in flight that reached their
     * service's timers a second time (once per message); monotonic. The AIMD window halves on these.
     */
    public long ownTimeouts(int serviceId) {
        Lane l = lanes.get(serviceId);
        return l == null ? 0 : l.count.timeouts();
    }

    /** Own messages of {@code serviceId} that left the in-flight states so far; monotonic. */
    public long ownCompletions(int serviceId) {
        Lane l = lanes.get(serviceId);
        return l == null ? 0 : l.count.completions();
    }

    /** Whether the store counts the application's messages of {@code serviceId} (its spec declares in-flight states). */
    public boolean counts(int serviceId) {
        return declaresInFlight.test(serviceId);
    }

    /**
     * Whether one more message from the application would find room for its instance, so a send
     * waits instead of having its message refused ({@code INSTANCE_LIMIT}) while finished
     * instances linger.
     */
    public boolean hasInstanceRoom() {
        return instancesClaimed.getAsLong() < maxInstances;
    }

    // ------------------------------------------------------------------ what the socket asks

    /** Whether the window is on and {@code serviceId}'s spec declares in-flight states. */
    @Override
    public boolean governs(int serviceId) {
        return setup.settings().enabled() && declaresInFlight.test(serviceId);
    }

    /**
     * Returns once fewer than the window's own messages of {@code serviceId} are in flight or
     * reserved and the store has room for one more instance; see {@link FlowControl#acquire}.
     */
    @Override
    public boolean acquire(int serviceId) {
        Setup s = setup;
        if (!s.settings().enabled() || !declaresInFlight.test(serviceId)) {
            return false;
        }
        Lane lane = lane(serviceId);
        if (tryReserve(s.settings(), serviceId, lane)) {
            return true;
        }
        if (!RealTimerService.mayWait(s.timers())) {
            return false;
        }
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(s.settings().maxWaitMs());
        long park = FIRST_PARK_NANOS;
        waits.increment();
        try {
            while (!tryReserve(s.settings(), serviceId, lane)) {
                long now = System.nanoTime();
                if (now - deadline >= 0) {
                    throw failed(s.settings(), serviceId, lane, now - start, false);
                }
                LockSupport.parkNanos(this, Math.min(park, deadline - now));
                park = Math.min(MAX_PARK_NANOS, park * 2);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw failed(s.settings(), serviceId, lane, System.nanoTime() - start, true);
                }
            }
        } finally {
            waitedNanos.add(System.nanoTime() - start);
        }
        return true;
    }

    @Override
    public void release(int serviceId) {
        lanes.get(serviceId).reserved.decrementAndGet();
    }

    private boolean tryReserve(OverlayConfig.SendWindow settings, int serviceId, Lane lane) {
        AtomicInteger held = lane.reserved;
        while (true) {
            int r = held.get();
            int inFlight = lane.count.count();
            if (inFlight + r >= limit(settings, serviceId, lane, inFlight) || !hasInstanceRoom()) {
                return false;
            }
            if (held.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** The configured window (or the service's AIMD window), at most what the service's spec allows. */
    private int limit(OverlayConfig.SendWindow settings, int serviceId, Lane lane, int inFlight) {
        int window = Math.min(settings.window(), serviceLimit.applyAsInt(serviceId));
        if (!settings.aimd()) {
            return window;
        }
        return lane.aimd(window).update(lane.count.timeouts(), lane.count.completions(), inFlight);
    }

    private SendWindowException failed(OverlayConfig.SendWindow settings, int serviceId, Lane lane, long waited,
            boolean interrupted) {
        failures.increment();
        int inFlight = lane.count.count();
        return new SendWindowException(serviceId, limit(settings, serviceId, lane, inFlight), inFlight, hasInstanceRoom(),
                TimeUnit.NANOSECONDS.toMillis(waited), interrupted);
    }

    /**
     * What the window did so far; its window is the smallest effective window of any service (the
     * configured one without AIMD, or before the first windowed send).
     */
    @Override
    public SendWindowStatistics statistics() {
        long halvings = 0;
        int smallest = setup.settings().window();
        for (Lane l : lanes.values()) {
            AimdWindow w = l.aimd;
            if (w != null) {
                halvings += w.halvings();
                smallest = Math.min(smallest, w.current());
            }
        }
        return new SendWindowStatistics(waits.sum(), waitedNanos.sum(), failures.sum(), halvings, smallest);
    }
}
