package io.statecast.messagestore.instance;

import io.statecast.messagestore.spec.Scope;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.Origin;
import io.statecast.overlay.message.OverlayMessage;
import java.util.Objects;

/**
 * Identifies a service instance, as the spec's {@link Scope} says:
 * <ul>
 *   <li>{@code message} and {@code message-source}: (ServiceID, origin, MessageID) — the
 *       blueprint's uniqueID with the node that first sent the message
 *       ({@link Origin}: a data message's source; a control message names it, or is its
 *       source's). A forged control message naming another origin reaches another instance, and
 *       two sources' MessageIDs never meet;</li>
 *   <li>{@code message-id}: (ServiceID, MessageID), whatever the source;</li>
 *   <li>{@code flow}: (ServiceID, source);</li>
 *   <li>{@code flow-destination}: (ServiceID, destination, else the tree's root);</li>
 *   <li>{@code flow-peer}: (ServiceID, {source, destination}) as an unordered pair, this node
 *       standing in for a missing destination; the pair is stored ordered by address bits;</li>
 *   <li>{@code expression}: (ServiceID, the string the spec's {@code <ScopeKey>} gives for the
 *       message), made by {@link #ofExpression} (the expression is the service's:
 *       {@code ServiceRuntime.keyOf}).</li>
 *   <li>{@code node}: (ServiceID) — the node's one instance of the service.</li>
 * </ul>
 *
 * @param scope     the scope the key was made for
 * @param serviceId the ServiceID
 * @param messageId the MessageID (message scopes), else 0
 * @param address   the origin (message, message-source), source (flow), destination
 *                  (flow-destination) or the lower end of the pair (flow-peer); {@code null} for
 *                  message-id and expression scopes
 * @param peer      the higher end of the pair (flow-peer), else {@code null}
 * @param value     the value of the {@code <ScopeKey>} (expression), else {@code null}
 */
public record InstanceKey(Scope scope, int serviceId, long messageId, LogicalAddress address, LogicalAddress peer,
        String value) {

    /** A key of any scope but {@link Scope#EXPRESSION}. */
    public InstanceKey(Scope scope, int serviceId, long messageId, LogicalAddress address, LogicalAddress peer) {
        this(scope, serviceId, messageId, address, peer, null);
    }

    /** Checks that the parts fit the scope. */
    public InstanceKey {
        Objects.requireNonNull(scope, "scope");
        boolean expression = scope == Scope.EXPRESSION;
        if ((address == null) != (expression || scope == Scope.MESSAGE_ID || scope == Scope.NODE) || (peer == null) != (scope != Scope.FLOW_PEER)
                || (value == null) != !expression || (!scope.perMessage() && messageId != 0)) {
            throw new IllegalArgumentException("key parts do not fit scope " + scope.label());
        }
    }

    /** The key of a message-scope instance: the message ({@code origin}, {@code messageId}). */
    public static InstanceKey ofMessage(int serviceId, LogicalAddress origin, long messageId) {
        return new InstanceKey(Scope.MESSAGE, serviceId, messageId, Objects.requireNonNull(origin, "origin"), null);
    }

    /** The key of a flow-scope instance (by source). */
    public static InstanceKey ofFlow(int serviceId, LogicalAddress source) {
        return new InstanceKey(Scope.FLOW, serviceId, 0, Objects.requireNonNull(source, "source"), null);
    }

    /** The key of an expression-scope instance: the {@code <ScopeKey>}'s value for its messages. */
    public static InstanceKey ofExpression(int serviceId, String value) {
        return new InstanceKey(Scope.EXPRESSION, serviceId, 0, null, null, Objects.requireNonNull(value, "value"));
    }

    /** The key of the node's one instance of a {@code node}-scope service. */
    public static InstanceKey ofService(int serviceId) {
        return new InstanceKey(Scope.NODE, serviceId, 0, null, null);
    }

    /** The key of a conversation between {@code a} and {@code b}, in either order. */
    public static InstanceKey ofPeers(int serviceId, LogicalAddress a, LogicalAddress b) {
        boolean aFirst = Long.compareUnsigned(a.toBits(), b.toBits()) <= 0;
        return new InstanceKey(Scope.FLOW_PEER, serviceId, 0, aFirst ? a : b, aFirst ? b : a);
    }

    /**
     * The key of the node's own instance under a flow {@code scope} or {@code node}: the one a
     * spec's {@code <Start>} starts when the service is deployed on the node {@code local}: the
     * flow from ({@code flow}), to ({@code flow-destination}) or of ({@code flow-peer}, the pair
     * {local, local}) this node, or the node's one instance ({@code node}).
     *
     * @throws IllegalArgumentException for a message scope (no instance belongs to the node)
     */
    public static InstanceKey ofNode(Scope scope, int serviceId, LogicalAddress local) {
        Objects.requireNonNull(local, "local");
        return switch (scope) {
            case FLOW -> ofFlow(serviceId, local);
            case FLOW_DESTINATION -> new InstanceKey(scope, serviceId, 0, local, null);
            case FLOW_PEER -> ofPeers(serviceId, local, local);
            case NODE -> ofService(serviceId);
            case MESSAGE, MESSAGE_SOURCE, MESSAGE_ID, EXPRESSION -> throw new IllegalArgumentException(
                    "scope " + scope.label() + " has no instance of the node");
        };
    }

    /**
     * The key of the instance {@code message} belongs to under {@code scope} on the node
     * {@code local}.
     *
     * @throws IllegalArgumentException if the message has no FSM extension, or for scope
     *                                  {@link Scope#EXPRESSION} (its key is the spec's expression's
     *                                  value: {@code ServiceRuntime.keyOf})
     */
    public static InstanceKey of(Scope scope, OverlayMessage message, LogicalAddress local) {
        FsmExtension fsm = message.fsm();
        if (fsm == null) {
            throw new IllegalArgumentException("message has no FSM extension");
        }
        int service = fsm.serviceId();
        return switch (scope) {
            case MESSAGE, MESSAGE_SOURCE -> new InstanceKey(scope, service, fsm.messageId(), Origin.of(message), null);
            case MESSAGE_ID -> new InstanceKey(scope, service, fsm.messageId(), null, null);
            case FLOW -> ofFlow(service, message.source());
            case FLOW_DESTINATION -> new InstanceKey(scope, service, 0,
                    message.destination() != null ? message.destination() : message.treeRoot(), null);
            case FLOW_PEER -> ofPeers(service, message.source(),
                    message.destination() != null ? message.destination() : Objects.requireNonNull(local, "local"));
            case NODE -> ofService(service);
            case EXPRESSION -> throw new IllegalArgumentException(
                    "an expression-scope key is the value of the spec's ScopeKey, not a message header's");
        };
    }

    /**
     * The source of a flow-scope key, else {@code null}: kept for the places that tell a flow
     * instance by it.
     */
    public LogicalAddress flowSource() {
        return scope == Scope.FLOW ? address : null;
    }

    /**
     * The MessageID a tombstone of this key records: the MessageID mixed with the origin (so
     * another origin's message of that MessageID is not taken for a late duplicate; 64 bits make
     * a false match as unlikely as two sources drawing one ID).
     */
    public long tombstoneId() {
        return address == null ? messageId : messageId ^ mix(address.toBits());
    }

    private static long mix(long v) {
        long h = v * 0x9E3779B97F4A7C15L;
        h ^= h >>> 32;
        return h * 0xBF58476D1CE4E5B9L;
    }

    /**
     * A well-mixed hash for choosing a shard (record hash codes of small numbers are not).
     */
    public int spread() {
        long h = serviceId * 0x9E3779B97F4A7C15L;
        h ^= messageId;
        if (address != null) {
            h ^= address.toBits() ^ 0x5851F42D4C957F2DL;
        }
        if (peer != null) {
            h ^= mix(peer.toBits());
        }
        if (value != null) {
            h ^= mix(value.hashCode());
        }
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
        int h = 31 * serviceId + (address == null ? 0 : address.hashCode());
        h = 31 * h + (peer == null ? 0 : peer.hashCode());
        h = 31 * h + (value == null ? 0 : value.hashCode());
        return 31 * h + Long.hashCode(messageId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InstanceKey k && k.serviceId == serviceId && k.messageId == messageId && k.scope == scope
                && Objects.equals(k.address, address) && Objects.equals(k.peer, peer) && Objects.equals(k.value, value);
    }

    @Override
    public String toString() {
        return switch (scope) {
            case MESSAGE, MESSAGE_SOURCE -> "service " + serviceId + " message " + messageId + " from " + address;
            case MESSAGE_ID -> "service " + serviceId + " message " + messageId;
            case FLOW -> "service " + serviceId + " flow from " + address;
            case FLOW_DESTINATION -> "service " + serviceId + " flow to " + address;
            case FLOW_PEER -> "service " + serviceId + " conversation " + address + " <-> " + peer;
            case EXPRESSION -> "service " + serviceId + " key '" + printable(value) + "'";
            case NODE -> "service " + serviceId + " (the node's instance)";
        };
    }

    /** The value with control characters escaped: it comes from a message and goes to logs. */
    private static String printable(String v) {
        StringBuilder sb = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
