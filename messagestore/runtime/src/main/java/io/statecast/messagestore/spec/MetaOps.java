package io.statecast.messagestore.spec;

/**
 * The {@code <data name="metaops">} section (blueprint §5.1.2.1): how the forwarding engine
 * treats the service's messages.
 *
 * @param messageStoreWillForwardMessage   true: the MessageStore forwards the service's data
 *                                         messages itself (they are not cloned and forwarded
 *                                         first); default false
 * @param processIntermediateUnicastMessage true: a node between source and destination of a
 *                                         unicast message also runs the service; default true
 * @param receiveOwnUnicast                true: a unicast the service sends to this node's own
 *                                         address reaches the service here as a message received
 *                                         (a group protocol counts its own node among the
 *                                         destinations); default false: it goes nowhere
 */
public record MetaOps(boolean messageStoreWillForwardMessage, boolean processIntermediateUnicastMessage,
        boolean receiveOwnUnicast) {

    /** The values used when the section or one of its flags is absent. */
    public static final MetaOps DEFAULTS = new MetaOps(false, true, false);

    /** The blueprint's two flags; {@code receiveOwnUnicast} false. */
    public MetaOps(boolean messageStoreWillForwardMessage, boolean processIntermediateUnicastMessage) {
        this(messageStoreWillForwardMessage, processIntermediateUnicastMessage, false);
    }
}
