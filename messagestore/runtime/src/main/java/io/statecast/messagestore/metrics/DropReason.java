package io.statecast.messagestore.metrics;

/** Why the MessageStore dropped a message (or refused an instance) — counted per node and per service. */
public enum DropReason {
    /** The data queue (payload messages) held its capacity already (drop-tail). */
    DATA_QUEUE_FULL,
    /** The control queue (every other MessageType) held its capacity already (drop-tail). */
    CONTROL_QUEUE_FULL,
    /** The message's ServiceID is not loaded and the queue of held messages is full. */
    UNKNOWN_SERVICE_QUEUE_FULL,
    /** The message's ServiceID stayed unknown for the whole hold time. */
    UNKNOWN_SERVICE_EXPIRED,
    /** No basic event of the service matches the message; it is no input of the service. */
    NOT_AN_INPUT,
    /**
     * The message found no instance and may not create one: under a message scope a control
     * message (an ACK, NACK or request about a message this node never saw, or whose instance
     * and tombstone are gone), or a message none of whose events the spec's {@code <CreatedBy>}
     * lists. A stream of these with no matching payloads is what forged control messages look like.
     */
    NO_INSTANCE,
    /** A new instance would exceed the live-instance limit. */
    INSTANCE_LIMIT,
    /**
     * The message's instance had spent its primitive budget ({@code instances.primitiveRatePerSecond},
     * {@code primitiveBurst}), or events waited for it: refused before the instance's chart saw
     * it, so no step runs half. To the chart it is a lost message.
     */
    THROTTLED,
    /** The message's instance has terminated (message scope) and is remembered as such. */
    TERMINATED_INSTANCE,
    /**
     * The service keys instances by an expression ({@code <Scope>expression</Scope>}) and its
     * {@code <ScopeKey>} gave no key for the message: an empty value, several items, a value
     * longer than {@code MessageKeyExpression.MAX_KEY_CHARS}, or an evaluation error (logged,
     * rate-limited).
     */
    NO_INSTANCE_KEY,
    /** The service was quarantined (a query overran its time) and its messages are refused. */
    QUARANTINED,
    /** The service was unloaded while the message waited. */
    SERVICE_UNLOADED,
    /** The store was closed. */
    CLOSED,
    /**
     * A Service Request message (MessageType -1) the store did not act on: no spec server is
     * configured, or the request was ignored or throttled (see {@link DeploymentMetrics}).
     */
    SERVICE_REQUEST,
    /**
     * A held message of an unknown service whose spec could not be obtained in the configured
     * number of tries (spec server, then Service Requests to the source).
     */
    SPEC_UNAVAILABLE,
    /** Processing failed unexpectedly (logged). */
    INTERNAL_ERROR
}
