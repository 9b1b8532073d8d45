package io.statecast.messagestore;

import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.ScratchStore;
import io.statecast.overlay.forward.ServiceMetaops;
import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The MessageStore's part of the receive-path warm-up before join: a second {@link MessageStore}
 * with the same configuration (shards, threading, queues, limits) and the same parsed specs, but
 * its own service runtimes, counters, instances, tombstones and shard threads. The overlay's
 * warm-up opens it on a scratch context and feeds it; what its instances send and deliver goes to
 * that context, and closing it ends them all. The specs are not warm-started again (the real store
 * did that when it loaded them).
 */
final class ScratchTwin implements ScratchStore {

    private final MessageStore store;
    private final List<ServiceSpec> specs;

    ScratchTwin(MessageStore store, List<ServiceSpec> specs) {
        this.store = store;
        this.specs = List.copyOf(specs);
    }

    @Override
    public List<OverlayMessage> samples(LogicalAddress self, LogicalAddress peer, long messageId, int payloadBytes) {
        List<OverlayMessage> out = new ArrayList<>();
        for (ServiceSpec spec : specs) {
            for (MessageEventDefinition d : spec.messageEvents()) {
                try {
                    out.add(WarmStart.synthesize(spec, d, self, peer, messageId, payloadBytes));
                } catch (RuntimeException e) {
                    // a filter no consistent message satisfies (e.g. a unicast pinned without a
                    // destination of this family): nothing to warm for it
                }
            }
        }
        return out;
    }

    @Override
    public int backlog() {
        return store.backlog();
    }

    @Override
    public void open(OverlayContext context) {
        store.open(context);
    }

    @Override
    public ServiceMetaops metaops(int serviceId) {
        return store.metaops(serviceId);
    }

    @Override
    public boolean receiveMessage(OverlayMessage message, Arrival arrival) {
        return store.receiveMessage(message, arrival);
    }

    @Override
    public void close() {
        store.close();
    }
}
