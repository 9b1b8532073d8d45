package io.statecast.overlay.forward;

import io.micrometer.core.instrument.MeterRegistry;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.RttEstimate;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.TimerService;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The narrow set of overlay operations a MessageStore acts through — the blueprint's network
 * primitives (Table 5.2) that touch the overlay. Timers and instance termination are the store's
 * own business; it schedules on {@link #timers()}.
 *
 * <p>Every method is thread-safe and non-blocking. Sends return the number of substrate
 * transmissions made (0 when there was nowhere to send, the hop limit was 0, or every send was
 * dropped — each counted by cause in the socket's statistics).
 */
public interface OverlayContext {

    /** This node's logical address. */
    LogicalAddress localAddress();

    /**
     * The blueprint's <em>updateNodeInfo</em>: the current snapshot of neighbours, parents and
     * children (lock-free; take one snapshot per decision).
     */
    Topology topology();

    /**
     * The round-trip time to {@code neighbour} as the overlay node measures it from the
     * timestamps its heartbeats carry: smoothed RTT and variation after RFC 6298
     * ({@link io.statecast.overlay.node.OverlayNode#rtt}). Empty — unknown — if
     * {@code neighbour} is not a neighbour or has given no sample yet. Read-only and lock-free;
     * ask per decision, it changes with every heartbeat. Default: always unknown (a context
     * without a measuring node).
     */
    default Optional<RttEstimate> neighbourRtt(LogicalAddress neighbour) {
        return Optional.empty();
    }

    /**
     * The socket's meter registry, where a store binds its meters when it is opened — meters
     * that read counters the store keeps anyway ({@code FunctionCounter}, {@code Gauge}), names
     * starting with {@code statecast.store.} (see {@code docs/metrics.md}); services loaded later
     * bind theirs when they load. The registry is closed with the socket. Empty when the socket
     * exports no metrics, and for a store opened outside a socket (a test, the receive-path
     * warm-up's scratch twin). Default: empty.
     */
    default Optional<MeterRegistry> meterRegistry() {
        return Optional.empty();
    }

    /** The node's timer service (its clock, virtual in simulations). */
    TimerService timers();

    /** A MessageID unique to this node (random 64-bit start, then a counter). */
    long newMessageId();

    /**
     * The blueprint's <em>sendDataMessage</em>: builds a data message (MessageType
     * {@link io.statecast.overlay.message.FsmExtension#PAYLOAD_TYPE}) from this node — source and
     * previous hop set to the local address — marked with {@code serviceId} and
     * {@code messageId}, and sends it along {@code route}. The store does not get it back.
     */
    int sendDataMessage(int serviceId, long messageId, byte[] payload, Route route);

    /**
     * The blueprint's <em>sendControlMessage</em>: as {@link #sendDataMessage} but with a
     * service-defined {@code messageType} and an optional body ({@code null}: no payload
     * extension); {@code messageId} names the data message it refers to.
     */
    int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route);

    /**
     * {@link #sendDataMessage(int, long, byte[], Route)} carrying {@code fields} in a fields
     * extension (none when empty). The default sends without fields and refuses non-empty ones,
     * so a context that cannot carry them never drops them silently.
     *
     * @throws UnsupportedOperationException if {@code fields} is not empty and this context
     *                                       cannot carry fields
     */
    default int sendDataMessage(int serviceId, long messageId, MessageFields fields, byte[] payload, Route route) {
        requireNoFields(fields);
        return sendDataMessage(serviceId, messageId, payload, route);
    }

    /**
     * {@link #sendControlMessage(int, byte, long, byte[], Route)} carrying {@code fields}; the
     * default as for {@link #sendDataMessage(int, long, MessageFields, byte[], Route)}.
     *
     * @throws UnsupportedOperationException as there
     */
    default int sendControlMessage(int serviceId, byte messageType, long messageId, MessageFields fields, byte[] body,
            Route route) {
        requireNoFields(fields);
        return sendControlMessage(serviceId, messageType, messageId, body, route);
    }

    /**
     * {@link #sendDataMessage(int, long, MessageFields, byte[], Route)} about a message first sent
     * by {@code origin} ({@link io.statecast.overlay.message.Origin}): the message carries an
     * origin extension naming it unless it is this node. The default sends only for this node's
     * own messages and refuses another origin, so a context that cannot carry one never drops it
     * silently.
     *
     * @param origin the node that first sent the message this one is about; {@code null}: this node
     * @throws UnsupportedOperationException as for fields, or for another origin
     */
    default int sendDataMessage(int serviceId, long messageId, LogicalAddress origin, MessageFields fields,
            byte[] payload, Route route) {
        requireLocalOrigin(origin);
        return sendDataMessage(serviceId, messageId, fields, payload, route);
    }

    /**
     * {@link #sendControlMessage(int, byte, long, MessageFields, byte[], Route)} about the message
     * ({@code origin}, {@code messageId}): an ACK, NACK or request of a node that is not the
     * message's source names its origin, so that the instance of that message, keyed by it, gets it.
     *
     * @param origin as for {@link #sendDataMessage(int, long, LogicalAddress, MessageFields, byte[], Route)}
     * @throws UnsupportedOperationException as there
     */
    default int sendControlMessage(int serviceId, byte messageType, long messageId, LogicalAddress origin,
            MessageFields fields, byte[] body, Route route) {
        requireLocalOrigin(origin);
        return sendControlMessage(serviceId, messageType, messageId, fields, body, route);
    }

    private void requireLocalOrigin(LogicalAddress origin) {
        if (origin != null && !origin.equals(localAddress())) {
            throw new UnsupportedOperationException("this overlay context cannot name another node (" + origin
                    + ") as the origin of a message");
        }
    }

    private static void requireNoFields(MessageFields fields) {
        if (!fields.isEmpty()) {
            throw new UnsupportedOperationException("this overlay context cannot send message fields");
        }
    }

    /**
     * Forwards a message the store holds (received or its own) to the next hops its header
     * implies: multicast to the children in the tree rooted at its source (or root), unicast to
     * the next hop toward its destination, flood to every neighbour except its previous hop. The
     * previous hop is rewritten and the hop limit decremented as on any hop.
     */
    int forwardMessage(OverlayMessage message);

    /**
     * The blueprint's <em>toApplication</em>: passes the message to the local application.
     *
     * @return false if the application's receive queue was full (counted)
     */
    boolean toApplication(OverlayMessage message);

    /**
     * The one thread that hands every received message to the store, as an executor that runs
     * tasks and timed tasks on it — the event loop of the node's only substrate interface — or
     * {@code null} if there is no such single thread. A store that runs its work there (io
     * threading) hands nothing from thread to thread on the receive path, and its sends are
     * written by the thread that writes them to the socket.
     */
    default ScheduledExecutorService receiveExecutor() {
        return null;
    }

    /**
     * Lets the application see what {@link #toApplication} delivered since the last call: the
     * delivering side may put off waking the application's thread until then, so that a batch of
     * deliveries costs one wake-up rather than one each. A MessageStore calls it after every
     * batch of work that may have delivered. Default: nothing (delivery is immediate).
     */
    default void flushDeliveries() {
    }

    /**
     * Whether the local application can take a delivery now (its receive queue has room). A
     * MessageStore holds its data messages back while it cannot, for at most
     * {@link #deliveryWaitNanos()}, so that a slow application does not stall its control
     * messages and timers. Default: always.
     */
    default boolean applicationHasRoom() {
        return true;
    }

    /**
     * How long a delivery to the application may wait for room ({@code overlay.buffers.deliveryWaitMs});
     * 0: it never waits. Default 0.
     */
    default long deliveryWaitNanos() {
        return 0;
    }
}
