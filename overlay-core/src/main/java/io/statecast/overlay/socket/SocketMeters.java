package io.statecast.overlay.socket;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.statecast.overlay.forward.DropCause;
import io.statecast.overlay.forward.ForwardingEngine;
import io.statecast.overlay.message.DecodeException;
import io.statecast.overlay.metrics.Meters;
import io.statecast.overlay.node.NodeCounters;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.OverlayNode;
import io.statecast.overlay.substrate.Adapter;
import io.statecast.overlay.substrate.AdapterMetrics;
import io.statecast.overlay.substrate.InterfaceMetrics;
import io.statecast.overlay.substrate.SubstrateInterface;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Binds the counters overlay-core keeps — the forwarding engine's, the send window's, the
 * adapter's, each interface's and the overlay node's — as meters (names in {@code docs/metrics.md}).
 * Nothing is counted twice: every meter reads the existing counter when it is exported.
 */
final class SocketMeters {

    private SocketMeters() {
    }

    static void bind(MeterRegistry r, ForwardingEngine engine, OverlayNode node, Adapter adapter, OverlaySocket socket,
            Inbox inbox) {
        Tags none = Tags.empty();
        Meters.counter(r, "socket.messages.received", "application messages received from the substrate", engine,
                e -> e.statistics().received(), none);
        Meters.counter(r, "socket.messages.sent", "messages this node originated (application and MessageStore)",
                engine, e -> e.statistics().originated(), none);
        Meters.counter(r, "socket.messages.delivered", "messages handed to the local application", engine,
                e -> e.statistics().delivered(), none);
        Meters.counter(r, "socket.messages.to.store", "messages handed to the MessageStore", engine,
                e -> e.statistics().toStore(), none);
        Meters.counter(r, "socket.transmissions", "copies put on the substrate (originated and forwarded)", engine,
                e -> e.statistics().transmissions(), none);
        for (DropCause c : DropCause.values()) {
            Meters.counter(r, "socket.drops", "messages (or copies) the forwarding engine dropped, by cause", engine,
                    e -> e.statistics().drops(c), Tags.of("cause", Meters.tagValue(c)));
        }
        Meters.gauge(r, "socket.neighbours", "neighbours now", node, n -> n.topology().neighbours().size(), none);
        for (NodeState s : NodeState.values()) {
            Meters.gauge(r, "socket.state", "1 for the node's current state, 0 for the others", node,
                    n -> n.state() == s ? 1 : 0, Tags.of("state", Meters.tagValue(s)));
        }
        Meters.gauge(r, "socket.receive.queue", "messages waiting in the application's receive queue", inbox,
                Inbox::size, none);
        Meters.counter(r, "socket.send.window.waits", "sends that found the send window full and waited", socket,
                s -> s.sendWindowStatistics().waits(), none);
        Meters.counter(r, "socket.send.window.wait.seconds", "total time sends waited for the send window", socket,
                s -> s.sendWindowStatistics().waitedNanos() / (double) TimeUnit.SECONDS.toNanos(1), none);
        Meters.counter(r, "socket.send.window.failures", "sends that gave up waiting for the send window", socket,
                s -> s.sendWindowStatistics().failures(), none);
        Meters.counter(r, "socket.send.window.halvings", "times an AIMD send window was halved", socket,
                s -> s.sendWindowStatistics().halvings(), none);
        Meters.gauge(r, "socket.send.window.size", "the smallest effective send window of any service now", socket,
                s -> s.sendWindowStatistics().window(), none);
        bindAdapter(r, adapter.metrics());
        for (SubstrateInterface i : adapter.interfaces()) {
            bindInterface(r, i.metrics(), i.scheme().uriScheme());
        }
        NodeCounters counters = node.liveCounters();
        if (counters != null) {
            counters.watch((name, adder) -> Meters.counter(r, "node.events",
                    "overlay node protocol events by name (messages by type, drops by cause, neighbour changes)",
                    adder, LongAdder::sum, Tags.of("event", name)));
        }
    }

    private static void bindAdapter(MeterRegistry r, AdapterMetrics m) {
        Meters.counter(r, "adapter.received", "messages decoded and handed on, by kind", m,
                AdapterMetrics::protocolReceived, Tags.of("kind", "protocol"));
        Meters.counter(r, "adapter.received", "messages decoded and handed on, by kind", m,
                AdapterMetrics::applicationReceived, Tags.of("kind", "application"));
        Meters.counter(r, "adapter.listener.failures", "times the adapter's listener threw", m,
                AdapterMetrics::listenerFailures, Tags.empty());
        Meters.counter(r, "adapter.sent", "messages encoded and accepted by an interface", m, AdapterMetrics::sent,
                Tags.empty());
        String d = "frames or messages the adapter dropped, by direction and cause";
        for (DecodeException.Reason c : DecodeException.Reason.values()) {
            Meters.counter(r, "adapter.drops", d, m, x -> x.dropped(c),
                    Tags.of("direction", "receive", "cause", Meters.tagValue(c)));
        }
        for (AdapterMetrics.ReceiveDrop c : AdapterMetrics.ReceiveDrop.values()) {
            Meters.counter(r, "adapter.drops", d, m, x -> x.dropped(c),
                    Tags.of("direction", "receive", "cause", Meters.tagValue(c)));
        }
        for (AdapterMetrics.SendDrop c : AdapterMetrics.SendDrop.values()) {
            Meters.counter(r, "adapter.drops", d, m, x -> x.dropped(c),
                    Tags.of("direction", "send", "cause", Meters.tagValue(c)));
        }
    }

    private static void bindInterface(MeterRegistry r, InterfaceMetrics m, String scheme) {
        Tags t = Tags.of("interface", scheme);
        Meters.counter(r, "interface.frames", "frames handed to or received from the substrate", m,
                InterfaceMetrics::framesSent, t.and("direction", "send"));
        Meters.counter(r, "interface.frames", "frames handed to or received from the substrate", m,
                InterfaceMetrics::framesReceived, t.and("direction", "receive"));
        Meters.counter(r, "interface.bytes", "frame bytes handed to or received from the substrate", m,
                InterfaceMetrics::bytesSent, t.and("direction", "send"));
        Meters.counter(r, "interface.bytes", "frame bytes handed to or received from the substrate", m,
                InterfaceMetrics::bytesReceived, t.and("direction", "receive"));
        String d = "frames (or connections) an interface dropped, by direction and cause";
        for (InterfaceMetrics.SendDrop c : InterfaceMetrics.SendDrop.values()) {
            Meters.counter(r, "interface.drops", d, m, x -> x.dropped(c),
                    t.and("direction", "send", "cause", Meters.tagValue(c)));
        }
        for (InterfaceMetrics.ReceiveDrop c : InterfaceMetrics.ReceiveDrop.values()) {
            Meters.counter(r, "interface.drops", d, m, x -> x.dropped(c),
                    t.and("direction", "receive", "cause", Meters.tagValue(c)));
        }
        for (InterfaceMetrics.ConnectionEvent e : InterfaceMetrics.ConnectionEvent.values()) {
            Meters.counter(r, "interface.connections", "connection events (TCP)", m, x -> x.count(e),
                    t.and("event", Meters.tagValue(e)));
        }
    }
}
