package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.MessageKeyExpression;
import io.statecast.overlay.message.DeliveryMode;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code <data name="service">} section: what the service is.
 *
 * @param name          short human name (the blueprint's "h2hack")
 * @param serviceId     the ServiceID carried in the FSM extension of the service's messages
 * @param deliveryModes delivery modes the service supports
 * @param scope         which messages share an instance
 * @param description   free text, possibly empty
 * @param inFlight      ids of the states in which a message this node sent is still awaiting
 *                      acknowledgement ({@code <InFlight>}), as written; empty when the spec
 *                      declares none (then the socket's send window does not apply)
 * @param scopeKey      the {@code <ScopeKey>} of scope {@link Scope#EXPRESSION}, else {@code null}
 * @param promises      what the service promises its applications ({@code <Promises>}); empty
 *                      when it declares nothing (best effort)
 * @param start         the event fired in the node's own instance when the service is deployed
 *                      ({@code <Start>}), or {@code null}: then an instance starts only when a
 *                      message reaches it
 * @param createdBy     the basic message events that may create an instance
 *                      ({@code <CreatedBy>}), as written; empty when the spec lists none: then,
 *                      under a message scope, only a data message creates one, and under the
 *                      other scopes any message an event matches (see {@code docs/spec-format.md})
 * @param inFlightCount the {@code <InFlightCount>}: the datamodel variable that counts an
 *                      instance's own messages in flight, or {@code null}; never with
 *                      {@code inFlight} states
 */
public record ServiceMetadata(String name, int serviceId, Set<DeliveryMode> deliveryModes, Scope scope,
        String description, List<String> inFlight, MessageKeyExpression scopeKey, Set<Promise> promises,
        String start, List<String> createdBy, InFlightCount inFlightCount) {

    /** A service that counts in-flight messages by state, if at all. */
    public ServiceMetadata(String name, int serviceId, Set<DeliveryMode> deliveryModes, Scope scope,
            String description, List<String> inFlight, MessageKeyExpression scopeKey, Set<Promise> promises,
            String start, List<String> createdBy) {
        this(name, serviceId, deliveryModes, scope, description, inFlight, scopeKey, promises, start, createdBy,
                null);
    }

    /** A service that lists no events creating instances (the default rule applies). */
    public ServiceMetadata(String name, int serviceId, Set<DeliveryMode> deliveryModes, Scope scope,
            String description, List<String> inFlight, MessageKeyExpression scopeKey, Set<Promise> promises,
            String start) {
        this(name, serviceId, deliveryModes, scope, description, inFlight, scopeKey, promises, start, List.of());
    }

    /** A service that is not started on deployment. */
    public ServiceMetadata(String name, int serviceId, Set<DeliveryMode> deliveryModes, Scope scope,
            String description, List<String> inFlight, MessageKeyExpression scopeKey, Set<Promise> promises) {
        this(name, serviceId, deliveryModes, scope, description, inFlight, scopeKey, promises, null);
    }

    /** A service that promises nothing and is not started on deployment. */
    public ServiceMetadata(String name, int serviceId, Set<DeliveryMode> deliveryModes, Scope scope,
            String description, List<String> inFlight, MessageKeyExpression scopeKey) {
        this(name, serviceId, deliveryModes, scope, description, inFlight, scopeKey, Set.of());
    }

    /** A service whose scope is not {@link Scope#EXPRESSION}. */
    public ServiceMetadata(String name, int serviceId, Set<DeliveryMode> deliveryModes, Scope scope,
            String description, List<String> inFlight) {
        this(name, serviceId, deliveryModes, scope, description, inFlight, (MessageKeyExpression) null);
    }

    /** A service that declares no in-flight states. */
    public ServiceMetadata(String name, int serviceId, Set<DeliveryMode> deliveryModes, Scope scope,
            String description) {
        this(name, serviceId, deliveryModes, scope, description, List.of());
    }

    /** Copies the modes and states; requires every component. */
    public ServiceMetadata {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(description, "description");
        deliveryModes = Set.copyOf(deliveryModes);
        inFlight = List.copyOf(inFlight);
        createdBy = List.copyOf(createdBy);
        promises = promises.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(promises));
        if ((scopeKey != null) != (scope == Scope.EXPRESSION)) {
            throw new IllegalArgumentException("a ScopeKey goes with scope expression and only with it (scope "
                    + scope.label() + ")");
        }
        if (inFlightCount != null && !inFlight.isEmpty()) {
            throw new IllegalArgumentException("in-flight states and an in-flight count exclude each other");
        }
        if (serviceId < 0) {
            throw new IllegalArgumentException("serviceId must be >= 0, got " + serviceId);
        }
        if (start != null && (scope.perMessage() || scope == Scope.EXPRESSION)) {
            throw new IllegalArgumentException("a service started on deployment needs a flow scope or node, not " + scope.label());
        }
    }

    /** Whether the store starts the node's own instance when the service is deployed. */
    public boolean startsOnDeploy() {
        return start != null;
    }
}
