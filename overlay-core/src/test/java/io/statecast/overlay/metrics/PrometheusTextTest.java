package io.statecast.overlay.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrometheusTextTest {

    @Test
    void shouldReadTypesSamplesLabelsAndEscapes() throws Exception {
        PrometheusText.Exposition e = PrometheusText.parse("""
                # HELP statecast_x_total a counter
                # TYPE statecast_x_total counter
                statecast_x_total{cause="a\\"b",node="n\\\\1"} 3.0
                statecast_y 1.5e3 1700000000000
                statecast_z{q="+Inf"} +Inf

                """);
        assertEquals(Map.of("statecast_x_total", "counter"), e.types());
        assertEquals(3, e.samples().size());
        PrometheusText.Sample x = e.named("statecast_x_total").get(0);
        assertEquals(new TreeMap<>(Map.of("cause", "a\"b", "node", "n\\1")), x.labels());
        assertEquals(3.0, x.value());
        assertEquals("statecast_x_total{cause=\"a\"b\",node=\"n\\1\"}", x.key());
        assertEquals(1500.0, e.named("statecast_y").get(0).value());
        assertEquals("statecast_y", e.named("statecast_y").get(0).key());
        assertTrue(Double.isInfinite(e.named("statecast_z").get(0).value()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x{a=\"1\"", "x{a=1} 2", "x 1 2 3", "x abc", "{a=\"1\"} 2", "x{a=\"1\",a=\"2\"} 3",
            "x{a=\"\\q\"} 1", "# TYPE", "x{a=\"1\"}2"})
    void shouldRefuseMalformedLinesNamingTheLine(String line) {
        PrometheusText.FormatException e = assertThrows(PrometheusText.FormatException.class,
                () -> PrometheusText.parse("ok 1\n" + line + "\n"));
        assertTrue(e.getMessage().startsWith("line 2: "), e.getMessage());
    }
}
