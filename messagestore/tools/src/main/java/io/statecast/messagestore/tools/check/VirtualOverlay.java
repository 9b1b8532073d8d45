package io.statecast.messagestore.tools.check;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.TimerService;
import java.util.concurrent.TimeUnit;

/**
 * The overlay as the checked instance sees it: the {@link AbstractNode}'s topology, a virtual
 * clock, and primitives that send nothing but say what they would have sent ({@link #lastCall}).
 * Every send reaches one node; the application queue never fills. Confined to one thread.
 */
final class VirtualOverlay implements OverlayContext, TimerService {

    private final AbstractNode node;
    private long nowMillis;
    private long nextMessageId = 1_000_000;
    private String lastCall = "";

    VirtualOverlay(AbstractNode node) {
        this.node = node;
    }

    /** Sets the virtual clock. */
    void setTime(long millis) {
        this.nowMillis = millis;
    }

    /** What the most recent primitive would have done, for traces; cleared by {@link #takeLastCall}. */
    String takeLastCall() {
        String s = lastCall;
        lastCall = "";
        return s;
    }

    @Override
    public LogicalAddress localAddress() {
        return node.self();
    }

    @Override
    public Topology topology() {
        return node;
    }

    @Override
    public TimerService timers() {
        return this;
    }

    @Override
    public long newMessageId() {
        return nextMessageId++;
    }

    @Override
    public int sendDataMessage(int serviceId, long messageId, byte[] payload, Route route) {
        lastCall = describe(route);
        return 1;
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
        lastCall = "type " + (messageType & 0xff) + " " + describe(route);
        return 1;
    }

    // Scenarios and the checker compare calls by their header; fields do not change what they check.
    @Override
    public int sendDataMessage(int serviceId, long messageId, MessageFields fields, byte[] payload, Route route) {
        return sendDataMessage(serviceId, messageId, payload, route);
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, MessageFields fields, byte[] body,
            Route route) {
        return sendControlMessage(serviceId, messageType, messageId, body, route);
    }

    // nor does the origin: the checker runs one message's instance
    @Override
    public int sendDataMessage(int serviceId, long messageId, LogicalAddress origin, MessageFields fields,
            byte[] payload, Route route) {
        return sendDataMessage(serviceId, messageId, payload, route);
    }

    @Override
    public int sendControlMessage(int serviceId, byte messageType, long messageId, LogicalAddress origin,
            MessageFields fields, byte[] body, Route route) {
        return sendControlMessage(serviceId, messageType, messageId, body, route);
    }

    @Override
    public int forwardMessage(OverlayMessage message) {
        lastCall = message.mode().name().toLowerCase() + (message.destination() == null ? ""
                : " to " + node.nameOf(message.destination()));
        return 1;
    }

    @Override
    public boolean toApplication(OverlayMessage message) {
        lastCall = "from " + node.nameOf(message.previousHop());
        return true;
    }

    private String describe(Route r) {
        String s = r.mode().name().toLowerCase();
        if (r.destination() != null) {
            s += " to " + node.nameOf(r.destination());
        }
        if (r.root() != null) {
            s += " on the tree of " + node.nameOf(r.root());
        }
        return s;
    }

    @Override
    public long nanoTime() {
        return TimeUnit.MILLISECONDS.toNanos(nowMillis);
    }

    @Override
    public Timer schedule(long delay, TimeUnit unit, Runnable task) {
        throw new UnsupportedOperationException("the checker keeps timers itself");
    }

    @Override
    public void execute(Runnable task) {
        task.run();
    }
}
