package io.statecast.overlay.testkit;

import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.ServiceMetaops;
import io.statecast.overlay.message.OverlayMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link MessageStorePort} for tests of the overlay side: keeps the context it is opened with
 * and every message handed to it, and answers the metaops for one service as the test sets them
 * (for every other service: {@link ServiceMetaops#NONE}). By default it forwards nothing itself, takes no intermediate
 * unicast and accepts every message. Thread-safe.
 */
public final class RecordingStore implements MessageStorePort {

    /** A message handed to the store, and how it arrived. */
    public record Received(OverlayMessage message, Arrival arrival) {
    }

    private final int serviceId;
    private volatile boolean forwardsItself;
    private volatile boolean intermediate;
    private volatile boolean ownUnicast;
    /** The metaops as last set, built once per change so that {@link #metaops} allocates nothing. */
    private volatile ServiceMetaops metaops = ServiceMetaops.NONE;
    private volatile boolean accepts = true;
    private volatile OverlayContext context;
    private final List<Received> received = new CopyOnWriteArrayList<>();

    /** A store for service {@code serviceId}. */
    public RecordingStore(int serviceId) {
        this.serviceId = serviceId;
    }

    /** Whether it forwards its service's messages itself. */
    public RecordingStore forwardsItself(boolean on) {
        forwardsItself = on;
        return remake();
    }

    /** Whether it processes its service's unicasts that pass through this node. */
    public RecordingStore processesIntermediateUnicast(boolean on) {
        intermediate = on;
        return remake();
    }

    /** Whether it gets back its service's unicasts to its own node. */
    public RecordingStore receivesOwnUnicast(boolean on) {
        ownUnicast = on;
        return remake();
    }

    private synchronized RecordingStore remake() {
        metaops = new ServiceMetaops(forwardsItself, intermediate, ownUnicast, false);
        return this;
    }

    /** Whether {@link #receiveMessage} accepts (default) or refuses. */
    public RecordingStore accepts(boolean on) {
        accepts = on;
        return this;
    }

    /** The context it was opened with; {@code null} before. */
    public OverlayContext context() {
        return context;
    }

    /** Every message handed to it, in order. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** The messages handed to it, in order. */
    public List<OverlayMessage> messages() {
        return received.stream().map(Received::message).toList();
    }

    /** How the messages handed to it arrived, in order. */
    public List<Arrival> arrivals() {
        return received.stream().map(Received::arrival).toList();
    }

    @Override
    public void open(OverlayContext c) {
        context = c;
    }

    @Override
    public ServiceMetaops metaops(int service) {
        return service == serviceId ? metaops : ServiceMetaops.NONE;
    }

    @Override
    public boolean receiveMessage(OverlayMessage message, Arrival arrival) {
        received.add(new Received(message, arrival));
        return accepts;
    }

    @Override
    public void close() {
    }
}
