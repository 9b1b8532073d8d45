package io.statecast.overlay.forward;

import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.socket.OverlayConfig;

/**
 * The only way overlay-core knows a MessageStore. A socket works without one (plain best-effort
 * delivery); with one installed, the {@link ForwardingEngine} follows the blueprint's rules for
 * messages that carry an FSM extension (a ServiceID):
 *
 * <ul>
 *   <li>the message is handed to the store ({@link #receiveMessage}) and, unless the store
 *       forwards that service's messages itself ({@link ServiceMetaops#forwardsItself}, the
 *       blueprint's <em>messageStoreWillForwardMessage</em>), also forwarded at once;</li>
 *   <li>the application sees such a message only through the store
 *       ({@link OverlayContext#toApplication}), never directly;</li>
 *   <li>a unicast message this node only relays is handed to the store only if
 *       {@link ServiceMetaops#processIntermediateUnicast} (the blueprint's
 *       <em>processIntermediateUnicastMessage</em>) is true for its service; otherwise the
 *       engine forwards it as if no store were installed.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Every method may be called from several threads at once (I/O threads, the application's
 * sending thread) and must not block: {@link #receiveMessage} enqueues into the store's own
 * bounded queues and returns. {@link #metaops} is called once or twice per message on the
 * forwarding path and should be a lookup in an immutable table.
 */
public interface MessageStorePort extends AutoCloseable {

    /**
     * Called once when the port is installed in a socket, before any other method; the store
     * acts on the overlay only through {@code context}, and binds its meters, if any, to
     * {@link OverlayContext#meterRegistry}.
     */
    void open(OverlayContext context);

    /**
     * How the engine treats the messages of {@code serviceId} (see {@link ServiceMetaops}): the
     * blueprint's two metaops, <em>messageStoreWillForwardMessage</em> and
     * <em>processIntermediateUnicastMessage</em>, and the store's two additions. Called once or
     * twice per message on the forwarding path: return a value computed when the service loaded
     * (no allocation), never {@code null}; for a service not loaded, the store's choice (usually
     * {@link ServiceMetaops#DEFAULTS}).
     */
    ServiceMetaops metaops(int serviceId);

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

    /** Stops the store; called when the socket closes. Idempotent. */
    @Override
    void close();
}
