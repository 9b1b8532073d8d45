package io.statecast.overlay.forward;

/**
 * How the {@link ForwardingEngine} treats the messages of one MessageStore service: the answer of
 * {@link MessageStorePort#metaops}, one immutable value per loaded service, so that the
 * per-message question is a lookup.
 *
 * @param forwardsItself             the blueprint's <em>messageStoreWillForwardMessage</em>: the
 *                                   store forwards the service's messages itself, so the engine
 *                                   must not
 * @param processIntermediateUnicast the blueprint's <em>processIntermediateUnicastMessage</em>: a
 *                                   unicast message of the service that this node only relays is
 *                                   handed to the store (else the engine forwards it as if no
 *                                   store were installed)
 * @param receivesOwnUnicast         a unicast of the service that the store sends to this node's
 *                                   own address comes back to the store as
 *                                   {@link Arrival#DELIVERED} (a group protocol's member is one
 *                                   of its own destinations); false: it goes nowhere
 * @param numbersConsecutively       the application's messages of the service take consecutive
 *                                   MessageIDs (a counter per service) instead of the node's
 *                                   enciphered ones: a service that keeps state across a source's
 *                                   messages may order them by MessageID, while one that keys an
 *                                   instance by a message's MessageID needs them unpredictable
 */
public record ServiceMetaops(boolean forwardsItself, boolean processIntermediateUnicast, boolean receivesOwnUnicast,
        boolean numbersConsecutively) {

    /**
     * Nothing asked of the engine: it forwards, relays without the store, sends own unicasts out
     * and numbers with enciphered IDs. What the engine assumes when a store fails to answer.
     */
    public static final ServiceMetaops NONE = new ServiceMetaops(false, false, false, false);

    /**
     * The blueprint's defaults, for a service whose spec leaves the metaops out — and what a
     * store answers for a service it has not loaded, so that relayed messages of it (a Service
     * Request among them) still reach the store: only {@code processIntermediateUnicast} is true.
     */
    public static final ServiceMetaops DEFAULTS = new ServiceMetaops(false, true, false, false);
}
