package io.statecast.messagestore.deploy;

import io.statecast.overlay.message.OverlayMessage;

/**
 * Told when the first message of a service that is not loaded is held, so that something can
 * fetch its spec (the spec server, or the blueprint's Service Request message to the source) and
 * call {@code MessageStore.loadService}. Called on the thread that delivered the message; must not
 * block.
 */
@FunctionalInterface
public interface UnknownServiceHandler {

    /** Does nothing. */
    UnknownServiceHandler NONE = (serviceId, first) -> { };

    /** @param serviceId the unknown ServiceID; @param first the message that is waiting */
    void serviceNeeded(int serviceId, OverlayMessage first);
}
