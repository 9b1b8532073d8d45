package io.statecast.messagestore.deploy;

import io.statecast.messagestore.metrics.DeploymentMetrics;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.OverlayMessage;

/**
 * A {@code MessageStore}'s run-time deployment hook. Told when the first message of a service
 * that is not loaded is held, so that something can fetch its spec (the spec server, or the
 * blueprint's Service Request message to the source) and install it; also handed the Service
 * Request messages (MessageType -1) the store receives and the specs loaded locally, so it can
 * publish them. Every method is called on the thread that delivered the message or loaded the
 * spec and must not block.
 */
@FunctionalInterface
public interface UnknownServiceHandler {

    /** Does nothing. */
    UnknownServiceHandler NONE = (serviceId, first) -> { };

    /** @param serviceId the unknown ServiceID; @param first the message that is waiting */
    void serviceNeeded(int serviceId, OverlayMessage first);

    /**
     * A Service Request message (MessageType {@code -1}) reached the store as a target (never one
     * this node only relays: the store passes those on itself).
     *
     * @return true if the handler acted on it (or will); false: the store counts it as dropped
     */
    default boolean serviceRequested(OverlayMessage request, Arrival arrival) {
        return false;
    }

    /**
     * A spec was loaded from a URI ({@code MessageStore.loadService}) and installed.
     *
     * @param document the exact bytes it was loaded from (not to be modified)
     */
    default void serviceLoaded(ServiceSpec spec, byte[] document) {
    }

    /** The handler's counters. */
    default DeploymentMetrics metrics() {
        return DeploymentMetrics.NONE;
    }

    /** The store closed: stop what is under way, start nothing new. */
    default void storeClosed() {
    }
}
