package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.PayloadExtension;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link MessageFilter} pins down: for each attribute, the value its tests fix, or
 * {@code null} where the filter leaves it free. The warm start and {@code spec check} both build
 * messages that a filter accepts from it.
 *
 * @param mode        the delivery mode
 * @param hopLimit    the hop limit
 * @param messageId   the MessageID
 * @param serviceId   the ServiceID
 * @param type        the MessageType
 * @param data        whether the message is a data message
 * @param source      the source address ({@code local} resolved to the evaluating node)
 * @param destination the destination address
 * @param previousHop the previous hop's address
 * @param root        the root address
 */
public record FilterPins(DeliveryMode mode, Integer hopLimit, Long messageId, Integer serviceId, Byte type,
        Boolean data, LogicalAddress source, LogicalAddress destination, LogicalAddress previousHop,
        LogicalAddress root) {

    /**
     * Reads the tests of a filter; when two tests pin the same attribute, the later one wins (such a
     * filter matches nothing, and the messages built from it simply do not match either).
     *
     * @param filter the filter
     * @param self   the evaluating node's address, for tests written {@code local}
     * @return what the filter pins
     */
    public static FilterPins of(MessageFilter filter, LogicalAddress self) {
        DeliveryMode mode = null;
        Integer hopLimit = null;
        Long messageId = null;
        Integer serviceId = null;
        Byte type = null;
        Boolean data = null;
        LogicalAddress source = null;
        LogicalAddress destination = null;
        LogicalAddress previousHop = null;
        LogicalAddress root = null;
        for (AttributeTest t : filter.tests()) {
            if (t instanceof AttributeTest.MessageIdIs x) {
                messageId = x.id();
            } else if (t instanceof AttributeTest.ServiceIdIs x) {
                serviceId = x.id();
            } else if (t instanceof AttributeTest.MessageTypeIs x) {
                type = x.type();
            } else if (t instanceof AttributeTest.DeliveryModeIs x) {
                mode = x.mode();
            } else if (t instanceof AttributeTest.HopLimitIs x) {
                hopLimit = x.hopLimit();
            } else if (t instanceof AttributeTest.KindIs x) {
                data = x.data();
            } else if (t instanceof AttributeTest.AddressIs x) {
                LogicalAddress a = x.address() == null ? self : x.address();
                switch (x.attribute()) {
                    case SOURCE_ADDRESS -> source = a;
                    case DESTINATION_ADDRESS -> destination = a;
                    case PREVIOUS_HOP_ADDRESS -> previousHop = a;
                    case ROOT_ADDRESS -> root = a;
                    default -> throw new AssertionError(x.attribute());
                }
            }
        }
        return new FilterPins(mode, hopLimit, messageId, serviceId, type, data, source, destination, previousHop,
                root);
    }

    /** @return whether a message meeting the filter carries a payload: data unless pinned otherwise */
    public boolean carriesPayload() {
        return data != null ? data : type == null || type == FsmExtension.PAYLOAD_TYPE;
    }

    /** @return the pinned MessageType, else the payload type for data and type 1 for control */
    public byte messageType() {
        return type != null ? type : carriesPayload() ? FsmExtension.PAYLOAD_TYPE : 1;
    }

    /**
     * The extensions of a message meeting the filter.
     *
     * @param defaultServiceId the ServiceID unless the filter pins one
     * @param id               the MessageID to use
     * @param payload          the payload, used when the message carries one
     * @return the FSM extension, then the payload extension if any
     */
    public List<Extension> extensions(int defaultServiceId, long id, byte[] payload) {
        List<Extension> ext = new ArrayList<>(2);
        ext.add(new FsmExtension(serviceId != null ? serviceId : defaultServiceId, messageType(), id));
        if (carriesPayload()) {
            ext.add(new PayloadExtension(payload));
        }
        return ext;
    }

    /**
     * @param family an address family
     * @param a      a pinned address or {@code null}
     * @return {@code a} if it is of that family, else {@code null}
     */
    public static LogicalAddress ofFamily(LogicalAddress.Family family, LogicalAddress a) {
        return a != null && a.family() == family ? a : null;
    }
}
