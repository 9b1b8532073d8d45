package io.statecast.overlay.forward;

import io.micrometer.core.instrument.MeterRegistry;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.socket.OverlayConfig;

/**
 * The only way overlay-core knows a MessageStore. A socket works without one (plain best-effort
 * delivery); with one installed, the {@link ForwardingEngine} follows the blueprint's rules for
 * messages that carry an FSM extension (a ServiceID):
 *
 * <ul>
 *   <li>the message is handed to the store ({@link #receiveMessage}) and, unless the store
 *       forwards that service's messages itself ({@link #forwardsItself}, the blueprint's
 *       <em>messageStoreWillForwardMessage</em>), also forwarded at once;</li>
 *   <li>the application sees such a message only through the store
 *       ({@link OverlayContext#toApplication}), never directly;</li>
 *   <li>a unicast message this node only relays is handed to the store only if
 *       {@link #processIntermediateUnicast} (the blueprint's
 *       <em>processIntermediateUnicastMessage</em>) is true for its service; otherwise the
 *       engine forwards it as if no store were installed.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Every method may be called from several threads at once (I/O threads, the application's
 * sending thread) and must not block: {@link #receiveMessage} enqueues into the store's own
 * bounded queues and returns. The two metaop queries are called once per message on the
 * forwarding path and should be a lookup in an immutable table.
 */
public interface MessageStorePort extends AutoCloseable {

    /**
     * Called once when the port is installed in a socket, before any other method; the store
     * acts on the overlay only through {@code context}.
     */
    void open(OverlayContext context);

    /**
     * The blueprint's <em>messageStoreWillForwardMessage</em> metaop: true if the store forwards
     * messages of this service itself, so the engine must not.
     */
    boolean forwardsItself(int serviceId);

    /**
     * The blueprint's <em>processIntermediateUnicastMessage</em> metaop: true if a unicast message
     * of this service that this node only relays is handed to the store.
     */
    boolean processIntermediateUnicast(int serviceId);

    /**
     * Whether a unicast message of this service that the store itself sends to this node's own
     * address comes back to the store as {@link Arrival#DELIVERED} (a group protocol's member is
     * one of its own destinations). Default false: such a message goes nowhere.
     */
    default boolean receivesOwnUnicast(int serviceId) {
        return false;
    }

    /**
     * Takes a message carrying an FSM extension. Never blocks.
     *
     * @param message the message as it arrived (immutable; its payload must not be modified)
     * @param arrival why the store gets it
     * @return false if the store refused it (queue full, unknown service, closed); the engine
     *         counts that and does not deliver the message by other means
     */
    boolean receiveMessage(OverlayMessage message, Arrival arrival);

    /**
     * Whether the application's messages of {@code serviceId} take consecutive MessageIDs (a
     * counter per service) instead of the node's enciphered ones: a service that keeps state
     * across a source's messages may order them by MessageID (best-effort ordering), while one
     * that keys an instance by a message's MessageID needs them unpredictable. The default: none.
     */
    default boolean numbersConsecutively(int serviceId) {
        return false;
    }

    /**
     * The flow control of the application's sends through the socket this store is installed in
     * (see {@link FlowControl}): the send window with {@code settings}, its congestion response,
     * and waiting for room in the store. Called once by that socket, right after {@link #open};
     * the socket asks nothing else before a send. Default: nothing waits.
     *
     * @param settings the socket's {@code overlay.sendWindow}
     */
    default FlowControl flowControl(OverlayConfig.SendWindow settings) {
        return FlowControl.none(settings.window());
    }

    /**
     * A new scratch twin of this store for the receive-path warm-up before join (see
     * {@link ScratchStore}), or {@code null} when the store has none (the default). The caller
     * opens and closes it; the twin shares nothing that counts or delivers with this store.
     */
    default ScratchStore scratch() {
        return null;
    }

    /**
     * Binds the store's counters as meters in the socket's registry (called once, right after
     * the port is installed; the registry is closed with the socket). Meters must read counters
     * the store keeps anyway ({@code FunctionCounter}, {@code Gauge}), and services loaded later
     * bind theirs when they load. Names start with {@code statecast.store.} (see
     * {@code docs/metrics.md}). Default: nothing is bound.
     */
    default void bindMeters(MeterRegistry registry) {
    }

    /** Stops the store; called when the socket closes. Idempotent. */
    @Override
    void close();
}
