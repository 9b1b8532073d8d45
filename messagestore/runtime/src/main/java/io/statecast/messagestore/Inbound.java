package io.statecast.messagestore;

import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.OverlayMessage;

/**
 * A message on its way from {@code receiveMessage} to its shard, with what was decided on arrival.
 *
 * @param message the message
 * @param arrival why the store got it
 * @param service the service it belonged to on arrival
 * @param key     its instance key under that service's scope; {@code null} for scope expression
 *                until a shard computes it (then the message goes on to the key's shard with it)
 * @param data    whether it counts against the data queue (else control)
 * @param own     whether it is a data message of the local application for a service that declares
 *                in-flight states, already counted in the store's {@code SendWindow}: the
 *                instance that takes it adopts that count, and if none does the shard gives it back
 */
record Inbound(OverlayMessage message, Arrival arrival, ServiceRuntime service, InstanceKey key, boolean data,
        boolean own) {

    /** This message with its key. */
    Inbound withKey(InstanceKey k) {
        return new Inbound(message, arrival, service, k, data, own);
    }
}
