package io.statecast.overlay.testkit;

import io.micrometer.core.instrument.MeterRegistry;
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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * An {@link OverlayContext} that records every primitive a store calls. Two kinds:
 * <ul>
 *   <li>{@link #RecordingOverlay(LogicalAddress, TimerService, Topology) a stand-in}: sends
 *       nothing, keeps every call (with the thread that made it) for {@link #drain()}; its
 *       topology, RTTs, receive executor and application room are set by the test;</li>
 *   <li>{@link #around(OverlayContext, Consumer) a pass-through}: shows every call to an observer
 *       on the calling thread and hands it on to a real context; it keeps nothing, so a long run
 *       costs no memory here.</li>
 * </ul>
 * Thread-safe.
 */
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

    /** The context calls are handed on to; {@code null} for a stand-in. */
    private final OverlayContext inner;
    /** Sees each call of a pass-through; {@code null} for a stand-in. */
    private final Consumer<? super Call> observer;

    private final LogicalAddress self;
    private final TimerService timers;
    private volatile Topology topology;
    private volatile ScheduledExecutorService receiveExecutor;
    private volatile boolean applicationFull;
    private volatile long deliveryWaitNanos;
    private final Map<LogicalAddress, RttEstimate> rtts = new ConcurrentHashMap<>();

    private final List<Call> calls = new ArrayList<>();
    private final List<Call> history = new ArrayList<>();
    private final Set<String> threads = new HashSet<>();
    private final Map<Long, Set<String>> threadsByMessage = new ConcurrentHashMap<>();
    /** The origin each recorded send named ({@code null}: this node), in order. */
    private final List<LogicalAddress> origins = new ArrayList<>();
    private long nextId = 1_000_000;

    /** A stand-in for the overlay of node {@code self}: sends nothing, records every call. */
    public RecordingOverlay(LogicalAddress self, TimerService timers, Topology topology) {
        this(null, null, self, timers, topology);
    }

    private RecordingOverlay(OverlayContext inner, Consumer<? super Call> observer, LogicalAddress self,
            TimerService timers, Topology topology) {
        this.inner = inner;
        this.observer = observer;
        this.self = self;
        this.timers = timers;
        this.topology = topology;
    }

    /**
     * A pass-through: every call goes to {@code inner}, whose answers it returns, and to
     * {@code observer} on the calling thread — a send or forward before it is passed on (so that
     * what it causes comes after it), a delivery after (so that the observer finds the message
     * where {@code inner} put it). Nothing is kept.
     */
    public static RecordingOverlay around(OverlayContext inner, Consumer<? super Call> observer) {
        Objects.requireNonNull(inner, "inner");
        Objects.requireNonNull(observer, "observer");
        return new RecordingOverlay(inner, observer, inner.localAddress(), inner.timers(), null);
    }

    // ------------------------------------------------------------------ what a test sets (stand-in)

    /** The topology the next snapshot request returns. */
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

    /** Makes {@link #receiveExecutor()} return {@code e} (null: none, the default). */
    public void receiveExecutor(ScheduledExecutorService e) {
        receiveExecutor = e;
    }

    /** Whether the application's receive queue is full ({@link #applicationHasRoom}); deliveries still succeed. */
    public void applicationFull(boolean full) {
        applicationFull = full;
    }

    /** What {@link #deliveryWaitNanos()} answers (default 0). */
    public void deliveryWaitNanos(long nanos) {
        deliveryWaitNanos = nanos;
    }

    // ------------------------------------------------------------------ what a test reads (stand-in)

    /** The calls since the last drain, and forgets them. */
    public synchronized List<Call> drain() {
        List<Call> out = List.copyOf(calls);
        calls.clear();
        return out;
    }

    /** Every call so far, drained or not. */
    public synchronized List<Call> history() {
        return List.copyOf(history);
    }

    /** How many messages went to the application so far ({@code serviceId} &lt; 0: of any service). */
    public synchronized long delivered(int serviceId) {
        return history.stream().filter(c -> c instanceof ToApplication t
                && (serviceId < 0 || t.message().fsm() != null && t.message().fsm().serviceId() == serviceId)).count();
    }

    /** The names of the threads that made calls so far. */
    public synchronized Set<String> threads() {
        return Set.copyOf(threads);
    }

    /** The names of the threads that sent or delivered something about MessageID {@code messageId}. */
    public Set<String> threads(long messageId) {
        Set<String> s = threadsByMessage.get(messageId);
        return s == null ? Set.of() : Set.copyOf(s);
    }

    /** The origins the sends named so far ({@code null}: this node). */
    public synchronized List<LogicalAddress> origins() {
        return new ArrayList<>(origins);
    }

    private void record(Call c, long messageId, boolean withOrigin, LogicalAddress origin) {
        if (observer != null) {
            observer.accept(c);
            return;
        }
        String thread = Thread.currentThread().getName();
        threadsByMessage.computeIfAbsent(messageId, k -> ConcurrentHashMap.newKeySet()).add(thread);
        synchronized (this) {
            calls.add(c);
            history.add(c);
            threads.add(thread);
            if (withOrigin) {
                origins.add(origin);
            }
        }
    }

    private static long messageIdOf(OverlayMessage m) {
        return m.fsm() == null ? -1 : m.fsm().messageId();
    }

    // ------------------------------------------------------------------ OverlayContext

    @Override
    public LogicalAddress localAddress() {
        return self;
    }

    @Override
    public Topology topology() {
        return inner != null ? inner.topology() : topology;
    }

    @Override
    public TimerService timers() {
        return timers;
    }

    @Override
    public Optional<MeterRegistry> meterRegistry() {
        return inner != null ? inner.meterRegistry() : Optional.empty();
    }

    @Override
    public Optional<RttEstimate> neighbourRtt(LogicalAddress neighbour) {
        return inner != null ? inner.neighbourRtt(neighbour) : Optional.ofNullable(rtts.get(neighbour));
    }

    @Override
    public ScheduledExecutorService receiveExecutor() {
        return inner != null ? inner.receiveExecutor() : receiveExecutor;
    }

    @Override
    public void flushDeliveries() {
        if (inner != null) {
            inner.flushDeliveries();
        }
    }

    @Override
    public boolean applicationHasRoom() {
        return inner != null ? inner.applicationHasRoom() : !applicationFull;
    }

    @Override
    public long deliveryWaitNanos() {
        return inner != null ? inner.deliveryWaitNanos() : deliveryWaitNanos;
    }

    @Override
    public long newMessageId() {
        if (inner != null) {
            return inner.newMessageId();
        }
        synchronized (this) {
            return nextId++;
        }
    }

    @Override
    public int sendDataMessage(int serviceId, long messageId, byte[] payload, Route route) {
        record(new SendData(serviceId, messageId, payload, route), messageId, false, null);
        return inner != null ? inner.sendDataMessage(serviceId, messageId, payload, route) : 1;
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
        record(new SendControl(serviceId, messageType, messageId, body, route), messageId, false, null);
        return inner != null ? inner.sendControlMessage(serviceId, messageType, messageId, body, route) : 1;
    }

    @Override
    public int sendDataMessage(int serviceId, long messageId, MessageFields fields, byte[] payload, Route route) {
        record(new SendData(serviceId, messageId, payload, route, fields), messageId, false, null);
        return inner != null ? inner.sendDataMessage(serviceId, messageId, fields, payload, route) : 1;
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, MessageFields fields, byte[] body,
            Route route) {
        record(new SendControl(serviceId, messageType, messageId, body, route, fields), messageId, false, null);
        return inner != null ? inner.sendControlMessage(serviceId, messageType, messageId, fields, body, route) : 1;
    }

    @Override
    public int sendDataMessage(int serviceId, long messageId, LogicalAddress origin, MessageFields fields,
            byte[] payload, Route route) {
        record(new SendData(serviceId, messageId, payload, route, fields), messageId, true, origin);
        return inner != null ? inner.sendDataMessage(serviceId, messageId, origin, fields, payload, route) : 1;
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, LogicalAddress origin,
            MessageFields fields, byte[] body, Route route) {
        record(new SendControl(serviceId, messageType, messageId, body, route, fields), messageId, true, origin);
        return inner != null
                ? inner.sendControlMessage(serviceId, messageType, messageId, origin, fields, body, route)
                : 1;
    }

    @Override
    public int forwardMessage(OverlayMessage message) {
        record(new Forward(message), messageIdOf(message), false, null);
        return inner != null ? inner.forwardMessage(message) : 1;
    }

    @Override
    public boolean toApplication(OverlayMessage message) {
        boolean ok = inner == null || inner.toApplication(message);
        record(new ToApplication(message), messageIdOf(message), false, null);
        return ok;
    }
}
