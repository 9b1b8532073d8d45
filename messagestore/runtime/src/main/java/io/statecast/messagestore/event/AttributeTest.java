package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.util.Objects;

/**
 * One equality test of a basic-event message filter, compiled from one child of
 * {@code <Message>}. Tests read the message object directly; no XML is built to filter.
 */
public sealed interface AttributeTest {

    /** The attribute tested. */
    MessageAttribute attribute();

    /**
     * @param message the arriving message
     * @param self    the logical address of the node evaluating the filter
     * @return whether the message passes
     */
    boolean test(OverlayMessage message, LogicalAddress self);

    /** {@code <MessageIdentifier>}: the FSM extension's MessageID equals {@code id}. */
    record MessageIdIs(long id) implements AttributeTest {
        @Override
        public MessageAttribute attribute() {
            return MessageAttribute.MESSAGE_IDENTIFIER;
        }

        @Override
        public boolean test(OverlayMessage message, LogicalAddress self) {
            FsmExtension f = message.fsm();
            return f != null && f.messageId() == id;
        }
    }

    /** {@code <ServiceIdentifier>}: the FSM extension's ServiceID equals {@code id}. */
    record ServiceIdIs(int id) implements AttributeTest {
        @Override
        public MessageAttribute attribute() {
            return MessageAttribute.SERVICE_IDENTIFIER;
        }

        @Override
        public boolean test(OverlayMessage message, LogicalAddress self) {
            FsmExtension f = message.fsm();
            return f != null && f.serviceId() == id;
        }
    }

    /** {@code <MessageType>}: the FSM extension's MessageType equals {@code type}. */
    record MessageTypeIs(byte type) implements AttributeTest {
        @Override
        public MessageAttribute attribute() {
            return MessageAttribute.MESSAGE_TYPE;
        }

        @Override
        public boolean test(OverlayMessage message, LogicalAddress self) {
            FsmExtension f = message.fsm();
            return f != null && f.messageType() == type;
        }
    }

    /** {@code <DeliveryMode>}. */
    record DeliveryModeIs(DeliveryMode mode) implements AttributeTest {
        /** Requires a mode. */
        public DeliveryModeIs {
            Objects.requireNonNull(mode, "mode");
        }

        @Override
        public MessageAttribute attribute() {
            return MessageAttribute.DELIVERY_MODE;
        }

        @Override
        public boolean test(OverlayMessage message, LogicalAddress self) {
            return message.mode() == mode;
        }
    }

    /** {@code <HopLimit>}. */
    record HopLimitIs(int hopLimit) implements AttributeTest {
        @Override
        public MessageAttribute attribute() {
            return MessageAttribute.HOP_LIMIT;
        }

        @Override
        public boolean test(OverlayMessage message, LogicalAddress self) {
            return message.hopLimit() == hopLimit;
        }
    }

    /** {@code <MessageKind>}: data messages carry a payload, control messages do not. */
    record KindIs(boolean data) implements AttributeTest {
        @Override
        public MessageAttribute attribute() {
            return MessageAttribute.MESSAGE_KIND;
        }

        @Override
        public boolean test(OverlayMessage message, LogicalAddress self) {
            return (message.payload() != null) == data;
        }
    }

    /**
     * An address attribute equals {@code address}, or the evaluating node's own address when
     * {@code address} is {@code null} (written {@code local} in the spec).
     */
    record AddressIs(MessageAttribute attribute, LogicalAddress address) implements AttributeTest {
        /** Requires an address attribute. */
        public AddressIs {
            if (attribute == null || !attribute.isAddress()) {
                throw new IllegalArgumentException("not an address attribute: " + attribute);
            }
        }

        @Override
        public boolean test(OverlayMessage message, LogicalAddress self) {
            LogicalAddress actual = switch (attribute) {
                case SOURCE_ADDRESS -> message.source();
                case DESTINATION_ADDRESS -> message.destination();
                case PREVIOUS_HOP_ADDRESS -> message.previousHop();
                case ROOT_ADDRESS -> message.treeRoot();
                default -> throw new AssertionError(attribute);
            };
            LogicalAddress expected = address == null ? self : address;
            return actual != null && actual.equals(expected);
        }
    }
}
