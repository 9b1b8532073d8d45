package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SpecServerConfigTest {

    private static final Path DIR = Path.of("specs");

    @Test
    void shouldRefuseAServerWithoutTokenUnlessDeclaredInsecure() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SpecServerConfig("127.0.0.1", 0, DIR, Optional.empty(), false, SpecServerLimits.DEFAULTS));
        assertTrue(e.getMessage().contains("--insecure") && e.getMessage().contains("token"), e.getMessage());
        assertTrue(SpecServerConfig.insecure(DIR).insecure());
        assertThrows(IllegalArgumentException.class,
                () -> new SpecServerConfig("127.0.0.1", 0, DIR, Optional.of(Http.TOKEN), true, SpecServerLimits.DEFAULTS));
    }

    @Test
    void shouldRefuseWeakOrMalformedTokens() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SpecServerConfig.secured(DIR, "short"))
                .getMessage().contains("16"));
        assertThrows(IllegalArgumentException.class, () -> SpecServerConfig.secured(DIR, "with space 0123456789"));
        assertThrows(IllegalArgumentException.class, () -> SpecServerConfig.secured(DIR, "x".repeat(2000)));
    }

    @Test
    void shouldNeverPrintTheToken() {
        String s = SpecServerConfig.secured(DIR, Http.TOKEN).toString();
        assertFalse(s.contains(Http.TOKEN), s);
        assertTrue(s.contains("(set)"), s);
    }

    @Test
    void shouldNameTheSettingThatIsOutOfRange() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SpecServerLimits.DEFAULTS.withMaxSpecBytes(0))
                .getMessage().startsWith("maxSpecBytes=0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SpecServerLimits.DEFAULTS.withMaxConnections(-1))
                .getMessage().startsWith("maxConnections=-1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SpecServerLimits.DEFAULTS.withRequestTimeout(Duration.ZERO))
                .getMessage().startsWith("requestTimeout="));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SpecServerLimits.DEFAULTS.withMaxConnectionsPerAddress(0))
                .getMessage().startsWith("maxConnectionsPerAddress=0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SpecServerLimits.DEFAULTS.withHeaderTimeout(Duration.ZERO))
                .getMessage().startsWith("headerTimeout="));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SpecServerLimits.DEFAULTS.withServicesPerPage(0))
                .getMessage().startsWith("servicesPerPage=0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SpecServerConfig.insecure(DIR).withPort(70000))
                .getMessage().startsWith("port=70000"));
    }

    @Test
    void shouldDocumentTheDefaults() {
        SpecServerLimits d = SpecServerLimits.DEFAULTS;
        assertEquals(256 * 1024, d.maxSpecBytes());
        assertEquals(8 * 1024, d.maxHeaderBytes());
        assertEquals(2048, d.maxUriBytes());
        assertEquals(256, d.maxConnections());
        assertEquals(16, d.maxConnectionsPerAddress());
        assertEquals(Duration.ofSeconds(5), d.headerTimeout());
        assertEquals(50, d.servicesPerPage());
        assertEquals(Duration.ofSeconds(10), d.requestTimeout());
        assertEquals(Duration.ofSeconds(10), d.processingTimeout());
        assertEquals("127.0.0.1", SpecServerConfig.insecure(DIR).bindAddress());
    }
}
