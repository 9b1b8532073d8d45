package io.statecast.messagestore.event;

/**
 * A message attribute a basic-event filter can test, named as in the blueprint's marshalled
 * messages (the element names inside {@code <Message>} in filters and in the history).
 */
public enum MessageAttribute {
    /** The FSM extension's MessageID. */
    MESSAGE_IDENTIFIER("MessageIdentifier"),
    /** The FSM extension's ServiceID. */
    SERVICE_IDENTIFIER("ServiceIdentifier"),
    /** unicast, multicast or flood. */
    DELIVERY_MODE("DeliveryMode"),
    /** Hops left. */
    HOP_LIMIT("HopLimit"),
    /** The node that first sent the message. */
    SOURCE_ADDRESS("SourceAddress"),
    /** The unicast destination. */
    DESTINATION_ADDRESS("DestinationAddress"),
    /** The node this copy came from. */
    PREVIOUS_HOP_ADDRESS("PreviousHopAddress"),
    /** Root of the tree the message travels on (explicit, else implied by the mode). */
    ROOT_ADDRESS("RootAddress"),
    /** The FSM extension's MessageType, one byte. */
    MESSAGE_TYPE("MessageType"),
    /** data (carries a payload) or control (does not). Not in the blueprint; ours. */
    MESSAGE_KIND("MessageKind");

    private final String elementName;

    MessageAttribute(String elementName) {
        this.elementName = elementName;
    }

    /** The element name used in filters and in the history document. */
    public String elementName() {
        return elementName;
    }

    /** The attribute with this element name, or {@code null}. */
    public static MessageAttribute ofElementName(String name) {
        for (MessageAttribute a : values()) {
            if (a.elementName.equals(name)) {
                return a;
            }
        }
        return null;
    }

    /** Whether the attribute holds a logical address (so a filter may say {@code local}). */
    public boolean isAddress() {
        return this == SOURCE_ADDRESS || this == DESTINATION_ADDRESS
                || this == PREVIOUS_HOP_ADDRESS || this == ROOT_ADDRESS;
    }
}
