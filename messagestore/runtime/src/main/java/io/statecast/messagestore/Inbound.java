package io.statecast.messagestore;

import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.Scope;
import io.statecast.overlay.address.LogicalAddress;
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
 * @param queuedNanos when the store queued it, on the clock of the shards' timers: a shard fires
 *                the timers due before this first, then takes the message
 */
record Inbound(OverlayMessage message, Arrival arrival, ServiceRuntime service, InstanceKey key, boolean data,
        boolean own, long queuedNanos) {

    /**
     * The key of {@code message} as it arrives for {@code service}, or {@code null} for scope
     * expression: an XPath (maybe on Saxon) does not run on the caller's thread (an I/O thread),
     * so a shard computes it and hands the message on to the shard of that key.
     */
    static InstanceKey arrivalKey(ServiceRuntime service, OverlayMessage message, LogicalAddress local) {
        return service.scope() == Scope.EXPRESSION ? null : InstanceKey.of(service.scope(), message, local);
    }

    /** This message with its key. */
    Inbound withKey(InstanceKey k) {
        return new Inbound(message, arrival, service, k, data, own, queuedNanos);
    }
}
