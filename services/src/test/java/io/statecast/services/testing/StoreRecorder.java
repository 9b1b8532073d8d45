package io.statecast.services.testing;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.forward.ServiceMetaops;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.TimerService;
import io.statecast.overlay.testkit.RecordingOverlay;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Sits between a socket's forwarding engine and its MessageStore and writes down, in order, what
 * crossed: every message handed to the store, every message the store sent, and every message
 * the application received. Nothing is changed on the way.
 *
 * <p>Entries are compact (no payload bytes, only their length and hash) so that a soak run of
 * 10,000 messages on 50 nodes fits in memory. Every list is only touched on the virtual clock's
 * thread (the cluster runs the stores with clock threading), so they need no locks.
 */
final class StoreRecorder implements MessageStorePort {

    private final MessageStorePort store;
    private final boolean trace;
    private final List<SimCluster.Delivery> deliveries = new ArrayList<>();
    private final List<SimCluster.Traced> traced = new ArrayList<>();
    private final boolean keepPayloads;
    private final List<byte[]> payloads = new ArrayList<>();
    private volatile OverlaySocket socket;
    private volatile TimerService timers;

    StoreRecorder(MessageStorePort store, boolean trace) {
        this(store, trace, false);
    }

    /** @param keepPayloads whether to keep each delivered payload ({@link #payloads()}) */
    StoreRecorder(MessageStorePort store, boolean trace, boolean keepPayloads) {
        this.store = Objects.requireNonNull(store, "store");
        this.trace = trace;
        this.keepPayloads = keepPayloads;
    }

    /** The delivered payloads, parallel to {@link #deliveries()}; empty unless kept. */
    List<byte[]> payloads() {
        return payloads;
    }

    /** The socket whose application queue is drained after each delivery. */
    void attach(OverlaySocket s) {
        this.socket = s;
    }

    List<SimCluster.Delivery> deliveries() {
        return deliveries;
    }

    List<SimCluster.Traced> traced() {
        return traced;
    }

    @Override
    public void open(OverlayContext context) {
        this.timers = context.timers();
        LogicalAddress self = context.localAddress();
        store.open(RecordingOverlay.around(context, call -> seen(call, self)));
    }

    @Override
    public ServiceMetaops metaops(int serviceId) {
        // as the store says: a simulated node forwards and numbers as a real one does
        return store.metaops(serviceId);
    }

    @Override
    public boolean receiveMessage(OverlayMessage message, Arrival arrival) {
        if (trace && message.fsm() != null) {
            FsmExtension f = message.fsm();
            traced.add(new SimCluster.Traced(timers.nanoTime(), SimCluster.Direction.IN, f.messageType(), f.messageId(),
                    message.mode(), message.previousHop(), message.source()));
        }
        return store.receiveMessage(message, arrival);
    }

    @Override
    public void close() {
        store.close();
    }

    /** Writes down what the store does through its overlay: sends, forwards, deliveries. */
    private void seen(RecordingOverlay.Call call, LogicalAddress self) {
        if (call instanceof RecordingOverlay.SendData d) {
            out(FsmExtension.PAYLOAD_TYPE, d.messageId(), d.route(), self);
        } else if (call instanceof RecordingOverlay.SendControl c) {
            out(c.messageType(), c.messageId(), c.route(), self);
        } else if (call instanceof RecordingOverlay.Forward f) {
            forwarded(f.message());
        } else {
            drainApplication();
        }
    }

    private void out(byte type, long messageId, Route route, LogicalAddress self) {
        if (trace) {
            LogicalAddress to = route.mode() == DeliveryMode.UNICAST ? route.destination() : route.root();
            traced.add(new SimCluster.Traced(timers.nanoTime(), SimCluster.Direction.OUT, type, messageId, route.mode(), to,
                    self));
        }
    }

    private void forwarded(OverlayMessage message) {
        if (trace && message.fsm() != null) {
            traced.add(new SimCluster.Traced(timers.nanoTime(), SimCluster.Direction.FORWARD,
                    message.fsm().messageType(), message.fsm().messageId(), message.mode(),
                    message.mode() == DeliveryMode.UNICAST ? message.destination() : message.treeRoot(),
                    message.source()));
        }
    }

    /** Takes what the store just delivered out of the socket's application queue, as an application would. */
    private void drainApplication() {
        OverlaySocket s = socket;
        if (s == null) {
            return;
        }
        OverlayMessage m;
        try {
            while ((m = s.receive(0, TimeUnit.MILLISECONDS)) != null) {
                deliveries.add(SimCluster.Delivery.of(timers.nanoTime(), m));
                if (keepPayloads) {
                    payloads.add(m.payload());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static int hash(byte[] payload) {
        return payload == null ? 0 : Arrays.hashCode(payload);
    }
}
