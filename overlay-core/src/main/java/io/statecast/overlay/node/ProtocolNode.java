package io.statecast.overlay.node;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.substrate.TimerService;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every overlay node shares between its protocol thread and the outside: it confines
 * joining, leaving and protocol messages to the timer service's thread (through a bounded
 * {@link ProtocolInbox}), publishes an immutable view of type {@code T} that any thread may read,
 * tells listeners of changes, and keeps the node's counters. The protocol itself — what
 * {@link #start()}, {@link #stop()} and {@link #handle} do — is the subclass's.
 *
 * @param <T> the overlay's published view
 */
public abstract class ProtocolNode<T extends Topology> implements OverlayNode {

    private static final Logger LOG = LoggerFactory.getLogger(ProtocolNode.class);

    /** The timer service whose thread owns all protocol state. */
    protected final TimerService timers;
    /** Round-trip times to neighbours, from heartbeat timestamps; written on the protocol thread. */
    protected final RttTable rtts = new RttTable();
    private final ProtocolTransport transport;
    private final CopyOnWriteArrayList<NodeListener> listeners = new CopyOnWriteArrayList<>();
    private final NodeCounters counters = new NodeCounters();
    private final ProtocolInbox inbox;
    private volatile T published;

    /**
     * @param env                the node's environment (its timers and transport are used here)
     * @param maxPendingMessages protocol messages that may wait for the protocol thread; more are
     *                           dropped and counted as {@code droppedQueueFull}
     * @param initial            the view before the node joins
     */
    protected ProtocolNode(NodeEnvironment env, int maxPendingMessages, T initial) {
        this.timers = Objects.requireNonNull(env, "env").timers();
        this.transport = env.transport();
        this.inbox = new ProtocolInbox(timers, maxPendingMessages);
        this.published = Objects.requireNonNull(initial, "initial");
    }

    @Override
    public T topology() {
        return published;
    }

    @Override
    public final void join() {
        timers.execute(this::start);
    }

    @Override
    public final void leave() {
        timers.execute(this::stop);
    }

    @Override
    public final void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
        Objects.requireNonNull(message, "message");
        if (!inbox.post(() -> handle(message, from))) {
            count(NodeEvent.DROPPED_QUEUE_FULL);
        }
    }

    @Override
    public final Optional<RttEstimate> rtt(LogicalAddress neighbour) {
        return rtts.estimate(neighbour);
    }

    /**
     * Takes the timestamps of a heartbeat just received from the current neighbour {@code from}
     * ({@code null} if the sender sent none: it is sent none back), counting a sample as
     * {@code rttSamples} and a dropped one (negative or absurd) as {@code rttSamplesDropped}.
     * Protocol thread only.
     */
    protected final void receiveStamp(LogicalAddress from, HeartbeatStamp stamp) {
        switch (rtts.receive(from, stamp, timers.nanoTime())) {
            case SAMPLED -> count(NodeEvent.RTT_SAMPLES);
            case DROPPED -> count(NodeEvent.RTT_SAMPLES_DROPPED);
            case NO_ECHO, UNSTAMPED -> { }
        }
    }

    /**
     * The timestamps for a heartbeat to {@code to} sent now, or {@code null} if {@code to} sends
     * none (an older version). Protocol thread only.
     */
    protected final HeartbeatStamp stampFor(LogicalAddress to) {
        return rtts.stamp(to, timers.nanoTime());
    }

    /**
     * Timestamps with no echo, for a heartbeat to a node known only by its substrate address (a
     * buddy): so that a node of this version never looks like an older one. Protocol thread only.
     */
    protected final HeartbeatStamp bareStamp() {
        return new HeartbeatStamp(RttTable.micros(timers.nanoTime()), null);
    }

    @Override
    public final void addListener(NodeListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public final void removeListener(NodeListener listener) {
        listeners.remove(listener);
    }

    @Override
    public final Map<String, Long> counters() {
        return counters.snapshot();
    }

    @Override
    public final NodeCounters liveCounters() {
        return counters;
    }

    /**
     * Sends a protocol message and counts it under {@code counter}, or as {@code sendFailed} if
     * the transport refused or threw (logged; the protocol goes on).
     */
    protected final void send(SubstrateAddress to, ProtocolMessage m, NodeEvent counter) {
        boolean ok;
        try {
            ok = transport.send(to, m);
        } catch (RuntimeException e) {
            LOG.warn("{}: transport failed sending to {}: {}", topology().self(), to, e.toString());
            ok = false;
        }
        count(ok ? counter : NodeEvent.SEND_FAILED);
    }

    /** Adds one to the counter of {@code event}. */
    protected final void count(NodeEvent event) {
        counters.count(event);
    }

    /** Adds one to the counter of malformed protocol messages of this {@code reason}. */
    protected final void countMalformed(Enum<?> reason) {
        counters.countMalformed(reason);
    }

    /**
     * Publishes {@code view}; with {@code notify}, tells every listener (a failing listener is
     * logged and does not stop the others). Protocol thread only.
     */
    protected final void publish(T view, boolean notify) {
        T old = published;
        published = Objects.requireNonNull(view, "view");
        if (notify) {
            for (NodeListener l : listeners) {
                try {
                    l.onTopologyChanged(old, view);
                } catch (RuntimeException e) {
                    LOG.warn("{}: node listener failed: {}", view.self(), e.toString());
                }
            }
        }
    }

    /** Starts the protocol (on {@link #join()}); on the protocol thread. */
    protected abstract void start();

    /** Leaves (on {@link #leave()}); on the protocol thread. */
    protected abstract void stop();

    /** Handles one protocol message; on the protocol thread. */
    protected abstract void handle(ProtocolMessage message, SubstrateAddress from);
}
