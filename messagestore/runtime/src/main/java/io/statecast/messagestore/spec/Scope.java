package io.statecast.messagestore.spec;

/**
 * Which messages share a service instance: the spec's {@code <Scope>}. Every key includes the
 * ServiceID.
 */
public enum Scope {
    /**
     * One instance per message, named by (origin, MessageID): the blueprint's message-oriented
     * delivery. The origin is the node that first sent the message (its source; a reply from
     * another node names it, {@code io.statecast.overlay.message.Origin}). Default.
     */
    MESSAGE("message"),
    /** The same as {@link #MESSAGE} (the name of an earlier keying, in which only this scope held the source). */
    MESSAGE_SOURCE("message-source"),
    /**
     * One instance per MessageID, whatever the source: messages of several sources that agree on
     * a MessageID share it (incast merges them). A message forged with the MessageID reaches the
     * instance, so use it only where sources choose their MessageIDs together. Leaves tombstones.
     */
    MESSAGE_ID("message-id"),
    /** One instance per source address: state across the messages of a flow ({@code flow-source} says the same). */
    FLOW("flow"),
    /**
     * One instance per destination: a unicast's destination, else (multicast, flood) the root of
     * the tree the message travels on.
     */
    FLOW_DESTINATION("flow-destination"),
    /**
     * One instance per conversation: the unordered pair {source, destination}, where a message
     * without a destination (multicast, flood) counts this node as its destination. A message
     * from A to B and B's reply to A reach the same instance on A, on B and on every node between.
     */
    FLOW_PEER("flow-peer"),
    /**
     * One instance per value of the spec's {@code <ScopeKey>}, an XPath over the message (a
     * message field, a header value, a combination): messages with equal values share an
     * instance whatever their source. A message whose value is no single item belongs to no
     * instance and is dropped. Like the flow scopes, its instances leave no tombstone.
     */
    EXPRESSION("expression"),
    /**
     * One instance per node: every message of the service on a node reaches the same instance,
     * whatever its source, destination or fields — the single state of a group protocol (a
     * membership, a total order) on each member. It may be started on deployment ({@code <Start>}).
     * Like the flow scopes, its instance leaves no tombstone.
     */
    NODE("node");

    private final String label;

    Scope(String label) {
        this.label = label;
    }

    /** As written in {@code <Scope>}. */
    public String label() {
        return label;
    }

    /**
     * Whether an instance is one message's ({@link #MESSAGE}, {@link #MESSAGE_SOURCE},
     * {@link #MESSAGE_ID}): it leaves a tombstone when it ends.
     */
    public boolean perMessage() {
        return this == MESSAGE || this == MESSAGE_SOURCE || this == MESSAGE_ID;
    }

    /** The labels of every scope, for messages that list them. */
    public static String labels() {
        StringBuilder sb = new StringBuilder();
        for (Scope s : values()) {
            sb.append(sb.isEmpty() ? "" : ", ").append(s.label);
            if (s == FLOW) {
                sb.append(", flow-source");
            }
        }
        return sb.toString();
    }

    /** The scope written {@code text} ({@code flow-source} is {@link #FLOW}), or {@code null}. */
    public static Scope ofLabel(String text) {
        if (text.equals("flow-source")) {
            return FLOW;
        }
        for (Scope s : values()) {
            if (s.label.equals(text)) {
                return s;
            }
        }
        return null;
    }
}
