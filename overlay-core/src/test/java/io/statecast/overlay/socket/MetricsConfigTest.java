package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code overlay.metrics}: bound from YAML, off by default, bad values refused naming the field. */
class MetricsConfigTest {

    @Test
    void shouldHaveNoHttpEndpointByDefault() throws Exception {
        OverlayConfig c = OverlayConfig.parse("overlay: {id: x}");
        assertNull(c.metrics().http());
        assertNull(c.metrics().httpAddress());
        assertEquals(OverlayConfig.Metrics.defaults(), OverlayConfig.defaults("x", NodeType.DT).metrics());
    }

    @Test
    void shouldBindHostAndPort() throws Exception {
        OverlayConfig c = OverlayConfig.parse("overlay: {id: x, metrics: {http: \"127.0.0.1:9464\"}}");
        InetSocketAddress a = c.metrics().httpAddress();
        assertEquals("127.0.0.1", a.getHostString());
        assertEquals(9464, a.getPort());
        InetSocketAddress v6 = OverlayConfig.parse("overlay: {id: x, metrics: {http: \"[::1]:0\"}}").metrics().httpAddress();
        assertEquals("::1", v6.getHostString());
        assertEquals(0, v6.getPort());
        assertEquals("localhost", OverlayConfig.Metrics.http("localhost:1").httpAddress().getHostString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.0.0.1:", ":9464", "127.0.0.1:65536", "127.0.0.1:http", "::1:9464",
            "127.0.0.1:-1", "a b:1", "127.0.0.1:123456"})
    void shouldRefuseAMalformedHostPortNamingTheField(String value) {
        OverlayConfigException e = assertThrows(OverlayConfigException.class,
                () -> OverlayConfig.parse("overlay: {id: x, metrics: {http: \"" + value + "\"}}"));
        assertEquals("overlay.metrics.http", e.field(), e.getMessage());
        assertTrue(e.getMessage().contains("HOST:PORT"), e.getMessage());
    }

    @Test
    void shouldRefuseUnknownFieldsAndWrongTypes() {
        OverlayConfigException unknown = assertThrows(OverlayConfigException.class,
                () -> OverlayConfig.parse("overlay: {id: x, metrics: {htp: \"127.0.0.1:1\"}}"));
        assertTrue(unknown.field().startsWith("overlay.metrics"), unknown.field() + ": " + unknown.getMessage());
        OverlayConfigException tooLong = assertThrows(OverlayConfigException.class,
                () -> OverlayConfig.defaults("x", NodeType.DT)
                        .withMetrics(OverlayConfig.Metrics.http("h".repeat(400) + ":1")).validate());
        assertEquals("overlay.metrics.http", tooLong.field());
    }
}
