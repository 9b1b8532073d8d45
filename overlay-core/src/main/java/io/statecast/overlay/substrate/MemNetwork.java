package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.address.SubstrateAddress;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * An in-process substrate network: a hub that connects {@link MemInterface}s ({@code mem://name})
 * of any number of nodes in one JVM. A frame sent on a link {@code a -> b} gets its fate from the
 * network's {@link FaultModel} (the global configuration or the link's own) and is delivered by
 * scheduling a task on the network's {@link TimerService} after the frame's delay; frames with
 * equal delivery times arrive in the order they were sent.
 *
 * <p>With a {@link VirtualTimerService} and one thread driving it, a whole overlay runs
 * deterministically: same seed, same run. Each interface costs a few small objects and each frame
 * in flight one timer task, so thousands of nodes are cheap. Receivers are called on the timer
 * service's thread.
 *
 * <p>A frame whose destination does not exist or is closed when it arrives is released and
 * counted in {@link #undeliverable()}; the sender is not told, as on a real network.
 */
public final class MemNetwork {

    private final TimerService timers;
    private final FaultModel faults;
    private final MemNetworkConfig config;
    private final ConcurrentHashMap<String, MemInterface> interfaces = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder undeliverable = new LongAdder();

    /** A network without faults (configure them through {@link #faults()}), seeded with {@code seed}. */
    public MemNetwork(TimerService timers, long seed) {
        this(timers, new FaultModel(seed), MemNetworkConfig.defaults());
    }

    /**
     * @param timers schedules every delivery
     * @param faults decides every frame's fate
     * @param config settings
     */
    public MemNetwork(TimerService timers, FaultModel faults, MemNetworkConfig config) {
        this.timers = Objects.requireNonNull(timers, "timers");
        this.faults = Objects.requireNonNull(faults, "faults");
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * A new interface reachable at {@code mem://name}. The name is free again once the interface
     * is closed (a restarted node can take it).
     *
     * @throws IllegalArgumentException if an open interface has that name, or the name is invalid
     */
    public MemInterface newInterface(String name) {
        SubstrateAddress address = SubstrateAddress.mem(name);
        MemInterface i = new MemInterface(this, address);
        if (interfaces.putIfAbsent(name, i) != null) {
            throw new IllegalArgumentException("mem://" + name + " is already attached to this network");
        }
        return i;
    }

    /** The fault model of every link. */
    public FaultModel faults() {
        return faults;
    }

    /** The timer service deliveries run on. */
    public TimerService timers() {
        return timers;
    }

    /** The settings. */
    public MemNetworkConfig config() {
        return config;
    }

    /** Interfaces attached (open). */
    public int size() {
        return interfaces.size();
    }

    /** Frames scheduled and not yet delivered. */
    public int inFlight() {
        return inFlight.get();
    }

    /** Frames handed to a receiver. */
    public long delivered() {
        return delivered.sum();
    }

    /** Frames whose destination was missing or closed on arrival. */
    public long undeliverable() {
        return undeliverable.sum();
    }

    /** Called by {@link MemInterface#send}; the frame is already counted as sent. */
    boolean transmit(MemInterface from, SubstrateAddress to, ByteBuf frame) {
        FaultModel.Fate fate = faults.decide(from.localAddress(), to);
        int copies = fate.copies();
        if (copies == 0) {
            frame.release();
            return true;
        }
        if (inFlight.addAndGet(copies) > config.maxInFlightFrames()) {
            inFlight.addAndGet(-copies);
            frame.release();
            from.metrics().recordDrop(InterfaceMetrics.SendDrop.IN_FLIGHT_LIMIT);
            return false;
        }
        if (copies == 2) {
            schedule(fate.duplicateDelayNanos(), frame.copy(), from.localAddress(), to);
        }
        schedule(fate.delayNanos(), frame, from.localAddress(), to);
        return true;
    }

    private void schedule(long delayNanos, ByteBuf frame, SubstrateAddress from, SubstrateAddress to) {
        Runnable delivery = () -> deliver(frame, from, to);
        if (delayNanos == 0) {
            timers.execute(delivery);
        } else {
            timers.schedule(delayNanos, TimeUnit.NANOSECONDS, delivery);
        }
    }

    private void deliver(ByteBuf frame, SubstrateAddress from, SubstrateAddress to) {
        inFlight.decrementAndGet();
        MemInterface target = interfaces.get(to.authority());
        if (target == null || !target.accept(frame, from)) {
            undeliverable.increment();
            frame.release();
            return;
        }
        delivered.increment();
    }

    void detach(MemInterface i) {
        interfaces.remove(i.localAddress().authority(), i);
    }
}
