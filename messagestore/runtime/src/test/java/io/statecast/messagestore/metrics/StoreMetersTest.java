package io.statecast.messagestore.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.overlay.testkit.Await;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.metrics.PrometheusText;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two real sockets on UDP loopback in one JVM, each with a MessageStore running the acknowledged
 * test service (ServiceID 42, name {@code acktest}): the store's meters, node-wide and per
 * service, are bound through the socket's registry, exported at /metrics with the right names and
 * tags, grow with traffic, and follow the service as it is unloaded and loaded again.
 */
class StoreMetersTest {

    private static final String SERVICE = "acktest";
    private final List<OverlaySocket> sockets = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void close() {
        sockets.forEach(OverlaySocket::close);
    }

    private OverlaySocket open(OverlayConfig c) throws Exception {
        MessageStore store = new MessageStore(MessageStoreConfig.defaults().withShards(2), Specs.loader(),
                SpecResolver.defaults());
        store.install(Specs.load("specs/ack-service.scxml"));
        OverlaySocket s = OverlaySocket.builder(c.withMetrics(OverlayConfig.Metrics.http("127.0.0.1:0")))
                .messageStore(store).build();
        sockets.add(s);
        return s;
    }

    private PrometheusText.Exposition scrape(OverlaySocket s) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + s.metrics().httpAddress().getPort() + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            return PrometheusText.parse(r.body());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The one sample of {@code name} with these labels (and any others). */
    private static double value(PrometheusText.Exposition e, String name, Map<String, String> labels) {
        List<PrometheusText.Sample> m = e.named(name).stream()
                .filter(s -> s.labels().entrySet().containsAll(labels.entrySet())).toList();
        assertEquals(1, m.size(), () -> name + labels + ": " + m);
        return m.get(0).value();
    }

    private static final Map<String, String> ACK = Map.of("service", SERVICE, "service_id", "42");

    @Test
    void shouldExportTheStoresAndEachServicesCounters() throws Exception {
        OverlaySocket a = open(OverlayConfig.defaults("store-metrics", NodeType.TREE).withAddress("2"));
        a.join();
        OverlaySocket b = open(OverlayConfig.defaults("store-metrics", NodeType.TREE).withAddress("1")
                .withBuddies(a.substrateAddresses()));
        b.join();
        Await.until(() -> b.neighbours().contains(a.localAddress()) && a.neighbours().contains(b.localAddress()), 10,
                () -> "no tree edge: " + a.topology() + " / " + b.topology());

        PrometheusText.Exposition before = scrape(a);
        assertEquals("counter", before.types().get("statecast_store_messages_total"), before.types().toString());
        assertEquals("gauge", before.types().get("statecast_store_instances_live"));
        assertEquals(0.0, value(before, "statecast_store_messages_total", ACK));
        assertEquals(0.0, value(before, "statecast_store_drops_total", Map.of("service", SERVICE, "reason", "instance_limit")));
        assertEquals(0.0, value(before, "statecast_store_node_backlog", Map.of("queue", "data")));
        assertEquals(0.0, value(before, "statecast_store_node_downloads_total", Map.of("result", "started")));

        int n = 5;
        TreeAddress to = (TreeAddress) b.localAddress();
        for (int i = 0; i < n; i++) {
            a.sendTo(to, ("m" + i).getBytes(UTF_8), 42);
        }
        Await.until(() -> value(scrape(a), "statecast_store_composite_fired_total", ACK) >= n, 10,
                () -> "not every message was acknowledged: " + ((MessageStore) a.messageStore()).metrics().format());
        PrometheusText.Exposition sa = scrape(a);
        PrometheusText.Exposition sb = scrape(b);
        assertEquals(n, value(sa, "statecast_store_instances_creations_total", ACK));
        // n sent and n acknowledgements at least: on a loaded machine the service may retransmit,
        // and a repeated acknowledgement reaches the store too; the counters must agree with each other
        // (a late repeat may land between two meters' reads: scrape until one scrape agrees)
        Await.until(() -> {
            PrometheusText.Exposition e = scrape(a);
            double m = value(e, "statecast_store_messages_total", ACK);
            return m >= 2.0 * n && m == value(e, "statecast_store_node_messages_total", Map.of())
                    && m == value(e, "statecast_store_processing_seconds_count", ACK);
        }, 10, () -> "the store's message counters disagree or miss some: " + ((MessageStore) a.messageStore())
                .metrics().format());
        assertTrue(value(sa, "statecast_store_processing_seconds_sum", ACK) > 0);
        assertEquals(n, value(sb, "statecast_store_primitives_total",
                Map.of("service", SERVICE, "primitive", "toApplication")));
        assertTrue(value(sb, "statecast_store_actions_total", Map.of("service", SERVICE, "outcome", "executed")) >= 2 * n,
                "toApplication and sendControlMessage for each message, at least");
        assertTrue(value(sa, "statecast_socket_messages_to_store_total", Map.of()) >= n, "the acknowledgements");
        String nodeA = a.substrateAddresses().get(0).toString();
        assertEquals(nodeA, sa.named("statecast_store_messages_total").get(0).labels().get("node"));

        java.util.Set<String> exported = sa.samples().stream().map(PrometheusText.Sample::name)
                .collect(java.util.stream.Collectors.toSet());
        for (io.micrometer.core.instrument.Meter m : a.metrics().registry().getMeters()) {
            String base = m.getId().getName().replace('.', '_');
            assertTrue(exported.stream().anyMatch(x -> x.startsWith(base)),
                    () -> m.getId() + " is exported under its own name (no reserved suffix such as _created)");
        }
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("../../docs/metrics.md"));
        for (String name : exported) {
            String family = name.replaceAll("_(count|sum)$", "");
            assertTrue(doc.contains("`" + name + "`") || doc.contains("`" + family + "`"),
                    () -> name + " is exported but not documented in docs/metrics.md");
        }
        MessageStore storeA = (MessageStore) a.messageStore();
        MeterRegistry ra = a.metrics().registry();
        assertNotNull(ra.find("statecast.store.instances.live").tag("service", SERVICE).gauge());
        assertTrue(storeA.unloadService(42));
        assertNull(ra.find("statecast.store.instances.live").tag("service", SERVICE).gauge(),
                "an unloaded service's meters are removed");
        assertTrue(scrape(a).named("statecast_store_messages_total").isEmpty());
        assertNotNull(ra.find("statecast.store.node.messages").functionCounter(), "the store's own meters stay");
        storeA.install(Specs.load("specs/ack-service.scxml"));
        assertEquals(0.0, value(scrape(a), "statecast_store_messages_total", ACK), "a service loaded later is bound");

        long beans = ManagementFactory.getPlatformMBeanServer()
                .queryNames(new ObjectName("statecast:*"), null).stream()
                .filter(o -> o.toString().contains("statecastStoreMessages.") && o.toString().contains("acktest"))
                .count();
        assertEquals(2, beans, "one MBean per node for the same service's meter: no collision");
    }
}
