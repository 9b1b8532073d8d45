package io.statecast.messagestore.instance;

import io.statecast.messagestore.spec.Scope;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.util.Objects;

/**
 * Identifies a service instance. Message scope (the blueprint's uniqueID): (ServiceID,
 * MessageID). Flow scope: (ServiceID, source address).
 *
 * @param serviceId  the ServiceID
 * @param messageId  the MessageID (message scope), else 0
 * @param flowSource the message source (flow scope), else {@code null}
 */
public record InstanceKey(int serviceId, long messageId, LogicalAddress flowSource) {

    /** The key of a message-scope instance. */
    public static InstanceKey ofMessage(int serviceId, long messageId) {
        return new InstanceKey(serviceId, messageId, null);
    }

    /** The key of a flow-scope instance. */
    public static InstanceKey ofFlow(int serviceId, LogicalAddress source) {
        return new InstanceKey(serviceId, 0, Objects.requireNonNull(source, "source"));
    }

    /**
     * The key of the instance {@code message} belongs to under {@code scope}.
     *
     * @throws IllegalArgumentException if the message has no FSM extension
     */
    public static InstanceKey of(Scope scope, OverlayMessage message) {
        FsmExtension fsm = message.fsm();
        if (fsm == null) {
            throw new IllegalArgumentException("message has no FSM extension");
        }
        return scope == Scope.FLOW ? ofFlow(fsm.serviceId(), message.source()) : ofMessage(fsm.serviceId(), fsm.messageId());
    }

    /** The instance's scope. */
    public Scope scope() {
        return flowSource == null ? Scope.MESSAGE : Scope.FLOW;
    }

    /**
     * A well-mixed hash for choosing a shard (record hash codes of small numbers are not).
     */
    public int spread() {
        long h = serviceId * 0x9E3779B97F4A7C15L;
        h ^= flowSource == null ? messageId : flowSource.toBits() ^ 0x5851F42D4C957F2DL;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 31;
        h *= 0x94D049BB133111EBL;
        h ^= h >>> 29;
        return (int) h;
    }

    /**
     * Written out: the record's generated hash and equality go through method handles on every
     * lookup. The MessageID is added last and unscaled, so the keys of a source's consecutive
     * messages (its counter) get consecutive hashes and sit in neighbouring buckets of a hash
     * table: with hundreds of thousands of live instances, the lookups of messages that arrive
     * together then share cache lines instead of missing one each.
     */
    @Override
    public int hashCode() {
        int h = 31 * serviceId + (flowSource == null ? 0 : flowSource.hashCode());
        return 31 * h + Long.hashCode(messageId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InstanceKey k && k.serviceId == serviceId && k.messageId == messageId
                && Objects.equals(k.flowSource, flowSource);
    }

    @Override
    public String toString() {
        return flowSource == null ? "service " + serviceId + " message " + messageId
                : "service " + serviceId + " flow from " + flowSource;
    }
}
