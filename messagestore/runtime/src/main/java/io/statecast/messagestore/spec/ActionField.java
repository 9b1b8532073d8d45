package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.AttributeValues;
import java.util.EnumSet;
import java.util.Set;

/**
 * A parameter of a primitive that {@code action:set field="…"} may assign. The field names are
 * the blueprint's (§4.2.3.1 createMessage attributes, §5.1.2.4 examples).
 */
public enum ActionField {
    /** The whole message, usually copied from the history with an XPath. */
    MESSAGE("Message", null),
    /** unicast, multicast or flood. */
    DELIVERY_MODE("Message/DeliveryMode", EnumSet.of(ParameterType.STRING)),
    /** A logical address ("x,y" or an integer). */
    DESTINATION_ADDRESS("Message/DestinationAddress", EnumSet.of(ParameterType.STRING, ParameterType.INTEGER)),
    /**
     * The source a message handed to the application names (toApplication only: a service that
     * rebuilt another node's message delivers it as that node's). A logical address.
     */
    SOURCE_ADDRESS("Message/SourceAddress", EnumSet.of(ParameterType.STRING, ParameterType.INTEGER)),
    /** 0..255. */
    HOP_LIMIT("Message/HopLimit", EnumSet.of(ParameterType.INTEGER)),
    /** The MessageID. */
    MESSAGE_IDENTIFIER("Message/MessageIdentifier", EnumSet.of(ParameterType.INTEGER)),
    /** One byte. */
    MESSAGE_TYPE("Message/MessageType", EnumSet.of(ParameterType.INTEGER)),
    /** Payload; a literal is taken as UTF-8 text. */
    PAYLOAD("Message/Payload", EnumSet.of(ParameterType.STRING)),
    /** The instance-local timer identifier, a whole number >= 0. */
    TIMER_IDENTIFIER("Timer/TimerIdentifier", EnumSet.of(ParameterType.INTEGER)),
    /** Timer duration in milliseconds. */
    TIMER_VALUE("Timer/TimerValue", EnumSet.of(ParameterType.DURATION, ParameterType.INTEGER)),
    /** The history entries {@code forgetEvents} removes: an xpath selecting {@code <Event>}/{@code <Node>} elements. */
    EVENTS("Events", null),
    /**
     * One of the message's typed fields, {@code Message/Fields/NAME} (the path stands for all
     * names; {@link FieldAssignment#name()} says which). Its type is the {@code action:set}'s
     * {@code type} attribute, {@code integer} by default.
     */
    MESSAGE_FIELD("Message/Fields/*", EnumSet.of(ParameterType.INTEGER, ParameterType.STRING));

    /** What a message field's path starts with: {@code Message/Fields/NAME}. */
    public static final String FIELDS_PREFIX = "Message/Fields/";

    private final String path;
    private final Set<ParameterType> parameterTypes;

    ActionField(String path, Set<ParameterType> parameterTypes) {
        this.path = path;
        this.parameterTypes = parameterTypes == null ? Set.of() : Set.copyOf(parameterTypes);
    }

    /** The field path as written in {@code field="…"}. */
    public String path() {
        return path;
    }

    /** The field with this path, or {@code null}. */
    public static ActionField ofPath(String path) {
        for (ActionField f : values()) {
            if (f.path.equals(path)) {
                return f;
            }
        }
        return null;
    }

    /** Whether a parameter of this type may be assigned to the field with {@code param="…"}. */
    public boolean accepts(ParameterType type) {
        return parameterTypes.contains(type);
    }

    /**
     * Checks a literal {@code value="…"} for this field.
     *
     * @throws IllegalArgumentException naming the expected form
     */
    public void checkLiteral(String text) {
        switch (this) {
            case MESSAGE -> throw new IllegalArgumentException(
                    "field Message takes an xpath (a message from the history), not a literal value");
            case DELIVERY_MODE -> {
                // 1 and 3 were read as the blueprint's multicast and unicast (BlueprintForms); no other number means anything.
                if (text.strip().matches("[+-]?[0-9]+")) {
                    throw new IllegalArgumentException("DeliveryMode " + text.strip() + " has no meaning: the blueprint "
                            + "numbers only 1 (multicast) and 3 (unicast), and our wire codes differ; write unicast, "
                            + "multicast or flood");
                }
                AttributeValues.deliveryMode(text);
            }
            case DESTINATION_ADDRESS, SOURCE_ADDRESS -> AttributeValues.address(text);
            case HOP_LIMIT -> AttributeValues.longValue(text, 0, 255, "HopLimit");
            case MESSAGE_IDENTIFIER -> AttributeValues.longValue(text, Long.MIN_VALUE, Long.MAX_VALUE,
                    "MessageIdentifier");
            case MESSAGE_TYPE -> AttributeValues.byteValue(text);
            case PAYLOAD -> {
                if (text.length() > 4096) {
                    throw new IllegalArgumentException("a literal payload has at most 4096 characters");
                }
            }
            case TIMER_IDENTIFIER -> AttributeValues.longValue(text, 0, Integer.MAX_VALUE, "TimerIdentifier");
            case TIMER_VALUE -> AttributeValues.longValue(text, 0, ParameterType.MAX_DURATION_MS,
                    "TimerValue (milliseconds)");
            case EVENTS -> throw new IllegalArgumentException(
                    "field Events takes an xpath (the history's Event or Node elements to forget), not a literal value");
            case MESSAGE_FIELD -> throw new IllegalArgumentException(
                    "a message field's literal is checked against its type attribute (MessageFieldValues.parse)");
            default -> throw new AssertionError(this);
        }
    }
}
