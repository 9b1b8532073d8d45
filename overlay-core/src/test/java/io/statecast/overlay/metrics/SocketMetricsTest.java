package io.statecast.overlay.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.testkit.Await;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two real sockets on UDP loopback in one JVM: their meters have the documented names and tags,
 * their MBeans do not collide, /metrics serves Prometheus text whose counters grow with traffic,
 * and closing a socket removes its MBeans and its endpoint.
 */
class SocketMetricsTest {

    private final List<OverlaySocket> sockets = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void close() {
        sockets.forEach(OverlaySocket::close);
    }

    private OverlaySocket open(OverlayConfig c) throws Exception {
        OverlaySocket s = OverlaySocket.create(c.withMetrics(OverlayConfig.Metrics.http("127.0.0.1:0")));
        sockets.add(s);
        return s;
    }

    private PrometheusText.Exposition scrape(OverlaySocket s) throws Exception {
        InetSocketAddress a = s.metrics().httpAddress();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + a.getPort() + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"));
        return PrometheusText.parse(r.body());
    }

    private static double value(PrometheusText.Exposition e, String name, String... labels) {
        double sum = 0;
        boolean found = false;
        for (PrometheusText.Sample s : e.named(name)) {
            boolean match = true;
            for (int i = 0; i < labels.length; i += 2) {
                match &= labels[i + 1].equals(s.labels().get(labels[i]));
            }
            if (match) {
                sum += s.value();
                found = true;
            }
        }
        assertTrue(found, () -> name + " " + List.of(labels) + " not exported");
        return sum;
    }

    @Test
    void shouldExportEveryLayersCountersPerNode() throws Exception {
        OverlaySocket a = open(OverlayConfig.defaults("metrics-test", NodeType.TREE).withAddress("2"));
        a.join();
        OverlaySocket b = open(OverlayConfig.defaults("metrics-test", NodeType.TREE).withAddress("1")
                .withBuddies(a.substrateAddresses()));
        b.join();
        Await.until(() -> b.neighbours().contains(a.localAddress()) && a.neighbours().contains(b.localAddress()), 10,
                () -> "no tree edge within 10 s: " + a.topology() + " / " + b.topology());

        PrometheusText.Exposition before = scrape(a);
        assertEquals("counter", before.types().get("statecast_socket_messages_received_total"), before.types().toString());
        assertEquals("gauge", before.types().get("statecast_socket_neighbours"));
        String nodeA = a.substrateAddresses().get(0).toString();
        assertEquals(1.0, value(before, "statecast_socket_neighbours", "node", nodeA, "overlay", "metrics-test"));
        assertEquals(1.0, value(before, "statecast_socket_state", "state", a.state().name().toLowerCase()));
        value(before, "statecast_adapter_drops_total", "direction", "receive", "cause", "foreign_overlay");
        value(before, "statecast_adapter_drops_total", "direction", "send", "cause", "no_interface");
        value(before, "statecast_interface_frames_total", "interface", "udp", "direction", "receive");
        value(before, "statecast_socket_drops_total", "cause", "hop_limit");
        value(before, "statecast_socket_send_window_wait_seconds_total");
        assertTrue(value(before, "statecast_node_events_total") > 0, "the overlay node's protocol counters");
        double received = value(before, "statecast_socket_messages_received_total");
        double bytes = value(before, "statecast_interface_bytes_total", "direction", "receive");

        int n = 20;
        for (int i = 0; i < n; i++) {
            b.sendToAll(("m" + i).getBytes(UTF_8));
        }
        Await.until(() -> {
            try {
                return value(scrape(a), "statecast_socket_messages_received_total") >= received + n;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, 10, () -> "a's received counter did not grow by " + n + ": " + a.statistics());
        PrometheusText.Exposition after = scrape(a);
        assertTrue(value(after, "statecast_interface_bytes_total", "direction", "receive") > bytes);
        assertEquals(a.statistics().forwarding().delivered(), value(after, "statecast_socket_messages_delivered_total"),
                "the meter reads the same counter as statistics()");
        assertTrue(value(scrape(b), "statecast_socket_messages_sent_total") >= n);
        for (PrometheusText.Sample s : after.samples()) {
            assertTrue(s.name().startsWith("statecast_"), s.key());
            assertEquals(nodeA, s.labels().get("node"), s.key());
        }
    }

    @Test
    void shouldRegisterDistinctMBeansPerSocketAndRemoveThemOnClose() throws Exception {
        OverlaySocket a = open(OverlayConfig.defaults("metrics-jmx", NodeType.TREE).withAddress("1"));
        OverlaySocket b = OverlaySocket.create(OverlayConfig.defaults("metrics-jmx", NodeType.TREE).withAddress("1"));
        sockets.add(b);
        assertNull(b.metrics().httpAddress(), "no endpoint unless configured");
        assertNull(b.metrics().scrape());
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> ofA = server.queryNames(new ObjectName(NodeMetrics.JMX_DOMAIN + ":*"), null).stream()
                .filter(o -> o.toString().contains(quotedPort(a))).collect(java.util.stream.Collectors.toSet());
        Set<ObjectName> ofB = server.queryNames(new ObjectName(NodeMetrics.JMX_DOMAIN + ":*"), null).stream()
                .filter(o -> o.toString().contains(quotedPort(b))).collect(java.util.stream.Collectors.toSet());
        MeterRegistry ra = a.metrics().registry();
        assertEquals(ra.getMeters().size(), ofA.size(), "one MBean per meter of a: " + ofA);
        assertEquals(b.metrics().registry().getMeters().size(), ofB.size(), "one MBean per meter of b");
        assertTrue(ofA.stream().anyMatch(o -> o.toString().contains("statecastSocketMessagesSent")), ofA.toString());
        Meter sent = ra.find("statecast.socket.messages.sent").meter();
        assertNotNull(sent);
        assertEquals("metrics-jmx", sent.getId().getTag("overlay"));
        assertNotEquals(sent.getId().getTag("node"), b.metrics().registry().find("statecast.socket.messages.sent")
                .meter().getId().getTag("node"), "two sockets in one JVM are told apart by the node tag");
        ObjectName sentBean = ofA.stream().filter(o -> o.toString().contains("statecastSocketMessagesSent"))
                .findFirst().orElseThrow();
        List<String> attributes = java.util.Arrays.stream(server.getMBeanInfo(sentBean).getAttributes())
                .map(javax.management.MBeanAttributeInfo::getName).toList();
        assertTrue(attributes.contains("Count"), sentBean + " " + attributes);
        assertEquals(0L, ((Number) server.getAttribute(sentBean, "Count")).longValue());
        ObjectName neighboursBean = ofA.stream().filter(o -> o.toString().contains("statecastSocketNeighbours."))
                .findFirst().orElseThrow();
        assertEquals(0.0, ((Number) server.getAttribute(neighboursBean, "Value")).doubleValue(), "gauges show Value");

        InetSocketAddress endpoint = a.metrics().httpAddress();
        a.close();
        assertTrue(server.queryNames(new ObjectName(NodeMetrics.JMX_DOMAIN + ":*"), null).stream()
                .noneMatch(o -> o.toString().contains(quotedPort(a))), "a's MBeans are gone");
        assertEquals(ofB.size(), server.queryNames(new ObjectName(NodeMetrics.JMX_DOMAIN + ":*"), null).stream()
                .filter(o -> o.toString().contains(quotedPort(b))).count(), "b's stay");
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(endpoint, 2_000);
            throw new AssertionError("the endpoint still listens after close");
        } catch (java.io.IOException expected) {
            // closed with the socket
        }
    }

    @Test
    void shouldExportNothingWhenTheBuilderTurnsMetricsOff() throws Exception {
        OverlaySocket s = OverlaySocket.builder(OverlayConfig.defaults("metrics-off", NodeType.TREE).withAddress("1"))
                .exportMetrics(false).build();
        sockets.add(s);
        assertTrue(!s.metrics().exporting() && s.metrics().registry().getMeters().isEmpty());
        assertTrue(ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName(NodeMetrics.JMX_DOMAIN + ":*"), null)
                .stream().noneMatch(o -> o.toString().contains(quotedPort(s))));
        io.statecast.overlay.socket.OverlayConfigException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.statecast.overlay.socket.OverlayConfigException.class, () -> OverlaySocket.builder(
                        OverlayConfig.defaults("metrics-off", NodeType.TREE).withAddress("2")
                                .withMetrics(OverlayConfig.Metrics.http("127.0.0.1:0"))).exportMetrics(false).build());
        assertEquals("overlay.metrics.http", e.field());
    }

    private static String quotedPort(OverlaySocket s) {
        return ":" + s.substrateAddresses().get(0).port();
    }
}
