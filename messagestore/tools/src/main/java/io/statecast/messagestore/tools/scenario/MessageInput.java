package io.statecast.messagestore.tools.scenario;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.MessageFields;

/**
 * One arriving message as a scenario describes it; {@code null} components take their defaults
 * when the message is built ({@link ScenarioRunner}).
 *
 * @param line        where it is written
 * @param serviceId   ServiceID; default the spec's
 * @param type        MessageType byte; default the payload type 0x80 (a data message)
 * @param messageId   MessageID; default 1
 * @param mode        delivery mode; default unicast when a destination is given, else multicast
 * @param source      source address ({@code local} in the file is the node's own); required
 * @param destination destination address (unicast)
 * @param previousHop previous hop; default the source
 * @param root        explicit tree root
 * @param hopLimit    hops left; default 250
 * @param payload     payload bytes; default a data message carries an empty payload, a control message none
 * @param fields      the message's fields; default none
 */
public record MessageInput(int line, Integer serviceId, Byte type, Long messageId, DeliveryMode mode,
        LogicalAddress source, LogicalAddress destination, LogicalAddress previousHop, LogicalAddress root,
        Integer hopLimit, byte[] payload, MessageFields fields) {

    /** This input with every component it leaves open taken from {@code d}. */
    MessageInput over(MessageInput d) {
        if (d == null) {
            return this;
        }
        return new MessageInput(line, serviceId != null ? serviceId : d.serviceId, type != null ? type : d.type,
                messageId != null ? messageId : d.messageId, mode != null ? mode : d.mode,
                source != null ? source : d.source, destination != null ? destination : d.destination,
                previousHop != null ? previousHop : d.previousHop, root != null ? root : d.root,
                hopLimit != null ? hopLimit : d.hopLimit, payload != null ? payload : d.payload,
                fields != null ? fields : d.fields);
    }
}
