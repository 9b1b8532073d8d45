package io.statecast.messagestore.spec;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The overlay network primitives a spec may execute: the blueprint's Table 5.2
 * ({@code MessageStoreActions}) plus {@code forwardMessage} from §4.2.3.1 and our
 * {@code cancelTimer}. The name is what {@code action:create/set/execute name="…"} says.
 *
 * <p>The blueprint's createMessage and setMessage are not primitives: building a message is what
 * action:create and action:set do. Its examples execute "sendMessage", which Table 5.2 splits
 * into sendDataMessage and sendControlMessage; {@link BlueprintForms} reads a listing's
 * sendMessage as one of them, with a warning.
 */
public enum Primitive {
    /** Sends a data message (MessageType 0x80) with the given delivery mode and destination. */
    SEND_DATA_MESSAGE("sendDataMessage",
            EnumSet.of(ActionField.MESSAGE, ActionField.DELIVERY_MODE, ActionField.DESTINATION_ADDRESS,
                    ActionField.HOP_LIMIT, ActionField.MESSAGE_IDENTIFIER, ActionField.PAYLOAD,
                    ActionField.MESSAGE_FIELD),
            EnumSet.noneOf(ActionField.class)),
    /** Sends a control message (no payload) of the service-defined MessageType. */
    SEND_CONTROL_MESSAGE("sendControlMessage",
            EnumSet.of(ActionField.MESSAGE, ActionField.DELIVERY_MODE, ActionField.DESTINATION_ADDRESS,
                    ActionField.HOP_LIMIT, ActionField.MESSAGE_IDENTIFIER, ActionField.MESSAGE_TYPE,
                    ActionField.MESSAGE_FIELD),
            EnumSet.noneOf(ActionField.class)),
    /** Forwards a message not intended for this node (hop limit decremented, previous hop set). */
    FORWARD_MESSAGE("forwardMessage", EnumSet.of(ActionField.MESSAGE), EnumSet.of(ActionField.MESSAGE)),
    /**
     * Delivers a message to the local application; with {@code Message/MessageType}, a control
     * copy of it of that type (how a service reports an outcome, such as an end-to-end Full ACK
     * or a reset, to its application; it carries only the {@code Message/Fields/NAME} the action
     * sets). {@code Message/Payload}, {@code Message/SourceAddress},
     * {@code Message/MessageIdentifier} and {@code Message/Fields/NAME} override the base's, so a
     * service that rebuilt a message (from a parity repair) delivers it as its source sent it.
     */
    TO_APPLICATION("toApplication", EnumSet.of(ActionField.MESSAGE, ActionField.MESSAGE_TYPE, ActionField.PAYLOAD,
            ActionField.SOURCE_ADDRESS, ActionField.MESSAGE_IDENTIFIER, ActionField.MESSAGE_FIELD,
            ActionField.DELIVERY_MODE),
            EnumSet.of(ActionField.MESSAGE)),
    /** Sets (or re-sets) the instance's timer with the given identifier. */
    SET_TIMER("setTimer", EnumSet.of(ActionField.TIMER_IDENTIFIER, ActionField.TIMER_VALUE),
            EnumSet.of(ActionField.TIMER_IDENTIFIER, ActionField.TIMER_VALUE)),
    /** Cancels the instance's timer with the given identifier, if set. Ours, not the blueprint's. */
    CANCEL_TIMER("cancelTimer", EnumSet.of(ActionField.TIMER_IDENTIFIER), EnumSet.of(ActionField.TIMER_IDENTIFIER)),
    /** Ends this instance (the blueprint's terminate(serviceID, messageID), limited to itself). */
    TERMINATE("terminate", EnumSet.noneOf(ActionField.class), EnumSet.noneOf(ActionField.class)),
    /** Records the node's current address, parent, children and neighbours in the history. */
    UPDATE_NODE_INFO("updateNodeInfo", EnumSet.noneOf(ActionField.class), EnumSet.noneOf(ActionField.class)),
    /**
     * Removes the history entries whose {@code <Event>} or {@code <Node>} element the {@code Events}
     * xpath selects, so a long-lived (flow) instance keeps only what it still needs. Ours.
     */
    FORGET_EVENTS("forgetEvents", EnumSet.of(ActionField.EVENTS), EnumSet.of(ActionField.EVENTS));

    // sendMessage needs no hint: BlueprintForms maps (or refuses) every action:create of it.
    private static final Map<String, String> BLUEPRINT_HINTS = Map.of(
            "createMessage", "messages are built with action:create and action:set; execute sendDataMessage or "
                    + "sendControlMessage",
            "setMessage", "messages are modified with action:set before the action is executed");

    private final String specName;
    private final Set<ActionField> fields;
    private final Set<ActionField> required;

    Primitive(String specName, Set<ActionField> fields, Set<ActionField> required) {
        this.specName = specName;
        this.fields = Set.copyOf(fields);
        this.required = Set.copyOf(required);
    }

    /** The name written in specs. */
    public String specName() {
        return specName;
    }

    /**
     * Whether the primitive puts a message on the overlay ({@code sendDataMessage},
     * {@code sendControlMessage}, {@code forwardMessage}): what a service's send budget counts.
     */
    public boolean sends() {
        return this == SEND_DATA_MESSAGE || this == SEND_CONTROL_MESSAGE || this == FORWARD_MESSAGE;
    }

    /** The fields {@code action:set} may assign for this primitive. */
    public Set<ActionField> fields() {
        return fields;
    }

    /** The fields that must be assigned before {@code action:execute}. */
    public Set<ActionField> requiredFields() {
        return required;
    }

    /** The primitive with this spec name, or {@code null}. */
    public static Primitive ofSpecName(String name) {
        for (Primitive p : values()) {
            if (p.specName.equals(name)) {
                return p;
            }
        }
        return null;
    }

    /** The message for a name that is no primitive, with a hint for the blueprint's names. */
    static String unknownMessage(String name) {
        StringBuilder sb = new StringBuilder("unknown primitive '").append(name).append("'");
        String hint = BLUEPRINT_HINTS.get(name);
        if (hint != null) {
            sb.append(": ").append(hint);
        } else {
            sb.append(" (known: ");
            for (Primitive p : values()) {
                sb.append(p.specName).append(p.ordinal() < values().length - 1 ? ", " : ")");
            }
        }
        return sb.toString();
    }

    /** Why a field may not be set for this primitive (more specific than "not allowed" where we can). */
    String fieldRefusal(ActionField field) {
        if (this == SEND_DATA_MESSAGE && field == ActionField.MESSAGE_TYPE) {
            return "sendDataMessage always sends MessageType 0x80 (payload); use sendControlMessage for other types";
        }
        if (this == SEND_CONTROL_MESSAGE && field == ActionField.PAYLOAD) {
            return "a control message carries no payload (blueprint §4.2.3.1); use sendDataMessage";
        }
        StringBuilder allowed = new StringBuilder();
        for (ActionField f : ActionField.values()) {
            if (fields.contains(f)) {
                allowed.append(allowed.length() == 0 ? "" : ", ").append(f.path());
            }
        }
        return "field " + field.path() + " is not a parameter of " + specName + " (its fields: "
                + (allowed.length() == 0 ? "none" : allowed) + ")";
    }
}
