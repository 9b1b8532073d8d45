package io.statecast.messagestore.spec;

/**
 * Which messages share a service instance: the spec's {@code <Scope>}. Every key includes the
 * ServiceID.
 */
public enum Scope {
    /** One instance per MessageID: the blueprint's message-oriented delivery. Default. */
    MESSAGE("message"),
    /**
     * One instance per (source, MessageID): as {@link #MESSAGE}, but a message of another source
     * with the same MessageID cannot reach the instance. Replies from other nodes (a child's ACK)
     * reach it only when they keep the original source.
     */
    MESSAGE_SOURCE("message-source"),
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

    /** Whether an instance is one message's ({@link #MESSAGE}, {@link #MESSAGE_SOURCE}): it leaves a tombstone when it ends. */
    public boolean perMessage() {
        return this == MESSAGE || this == MESSAGE_SOURCE;
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
