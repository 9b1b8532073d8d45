package io.statecast.messagestore.support;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.RttEstimate;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.TimerService;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

/** An {@link OverlayContext} that records every primitive call instead of sending anything. */
public final class RecordingOverlay implements OverlayContext {

    /** One recorded call. */
    public sealed interface Call {
    }

    /** sendDataMessage. */
    public record SendData(int serviceId, long messageId, byte[] payload, Route route, MessageFields fields)
            implements Call {
        /** Without fields. */
        public SendData(int serviceId, long messageId, byte[] payload, Route route) {
            this(serviceId, messageId, payload, route, MessageFields.EMPTY);
        }
    }

    /** sendControlMessage. */
    public record SendControl(int serviceId, byte messageType, long messageId, byte[] body, Route route,
            MessageFields fields) implements Call {
        /** Without fields. */
        public SendControl(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
            this(serviceId, messageType, messageId, body, route, MessageFields.EMPTY);
        }
    }

    /** forwardMessage. */
    public record Forward(OverlayMessage message) implements Call {
    }

    /** toApplication. */
    public record ToApplication(OverlayMessage message) implements Call {
    }

    private final LogicalAddress self;
    private final TimerService timers;
    private volatile Topology topology;
    private final List<Call> calls = new ArrayList<>();
    private final Set<String> threads = new HashSet<>();
    private volatile ScheduledExecutorService receiveExecutor;
    private long nextId = 1_000_000;
    private final Map<LogicalAddress, RttEstimate> rtts = new ConcurrentHashMap<>();

    public RecordingOverlay(LogicalAddress self, TimerService timers, Topology topology) {
        this.self = self;
        this.timers = timers;
        this.topology = topology;
    }

    public void topology(Topology t) {
        topology = t;
    }

    /** Makes {@link #neighbourRtt} answer {@code e} for {@code neighbour} ({@code null}: unknown again). */
    public void rtt(LogicalAddress neighbour, RttEstimate e) {
        if (e == null) {
            rtts.remove(neighbour);
        } else {
            rtts.put(neighbour, e);
        }
    }

    @Override
    public Optional<RttEstimate> neighbourRtt(LogicalAddress neighbour) {
        return Optional.ofNullable(rtts.get(neighbour));
    }

    /** Makes {@link #receiveExecutor()} return {@code e} (null: none, the default). */
    public void receiveExecutor(ScheduledExecutorService e) {
        receiveExecutor = e;
    }

    @Override
    public ScheduledExecutorService receiveExecutor() {
        return receiveExecutor;
    }

    /** The names of the threads that made calls so far. */
    public synchronized Set<String> threads() {
        return Set.copyOf(threads);
    }

    /** The calls so far, and forgets them. */
    public synchronized List<Call> drain() {
        List<Call> out = List.copyOf(calls);
        calls.clear();
        return out;
    }

    private synchronized void add(Call c) {
        calls.add(c);
        threads.add(Thread.currentThread().getName());
    }

    @Override
    public LogicalAddress localAddress() {
        return self;
    }

    @Override
    public Topology topology() {
        return topology;
    }

    @Override
    public TimerService timers() {
        return timers;
    }

    @Override
    public synchronized long newMessageId() {
        return nextId++;
    }

    @Override
    public int sendDataMessage(int serviceId, long messageId, byte[] payload, Route route) {
        add(new SendData(serviceId, messageId, payload, route));
        return 1;
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
        add(new SendControl(serviceId, messageType, messageId, body, route));
        return 1;
    }

    @Override
    public int sendDataMessage(int serviceId, long messageId, MessageFields fields, byte[] payload, Route route) {
        add(new SendData(serviceId, messageId, payload, route, fields));
        return 1;
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, MessageFields fields, byte[] body,
            Route route) {
        add(new SendControl(serviceId, messageType, messageId, body, route, fields));
        return 1;
    }

    /** The origin each recorded send named ({@code null}: this node), in order; tests of the origin read it. */
    private final List<LogicalAddress> origins = new ArrayList<>();

    @Override
    public int sendDataMessage(int serviceId, long messageId, LogicalAddress origin, MessageFields fields,
            byte[] payload, Route route) {
        synchronized (this) {
            origins.add(origin);
        }
        return sendDataMessage(serviceId, messageId, fields, payload, route);
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, LogicalAddress origin,
            MessageFields fields, byte[] body, Route route) {
        synchronized (this) {
            origins.add(origin);
        }
        return sendControlMessage(serviceId, messageType, messageId, fields, body, route);
    }

    /** The origins the sends named so far ({@code null}: this node). */
    public synchronized List<LogicalAddress> origins() {
        return new ArrayList<>(origins);
    }

    @Override
    public int forwardMessage(OverlayMessage message) {
        add(new Forward(message));
        return 1;
    }

    @Override
    public boolean toApplication(OverlayMessage message) {
        add(new ToApplication(message));
        return true;
    }
}
