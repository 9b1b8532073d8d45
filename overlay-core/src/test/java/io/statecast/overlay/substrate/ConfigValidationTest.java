package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ConfigValidationTest {

    private static void refused(String expected, Executable construction) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, construction);
        assertTrue(e.getMessage().contains(expected), "message '" + e.getMessage() + "' should contain '" + expected + "'");
    }

    @Test
    void defaultsShouldBeValidAndDocumentedValues() {
        UdpConfig u = UdpConfig.defaults();
        assertEquals("127.0.0.1", u.host());
        assertEquals(0, u.port());
        assertEquals(4 * 1024 * 1024, u.receiveBufferBytes());
        assertEquals(UdpConfig.MAX_UDP_PAYLOAD_BYTES, u.maxDatagramBytes());
        TcpConfig t = TcpConfig.defaults();
        assertEquals(64 * 1024, t.maxFrameBytes());
        assertEquals(Duration.ofMillis(50), t.reconnectBackoffMin());
        assertEquals(FaultConfig.NONE, new FaultConfig(0, 0, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO));
        assertEquals(Duration.ofSeconds(10), AdapterConfig.defaults().dropLogInterval());
        assertEquals(1_000_000, MemNetworkConfig.defaults().maxInFlightFrames());
    }

    @Test
    void udpConfigShouldNameTheFieldAndLimit() {
        UdpConfig d = UdpConfig.defaults();
        refused("port=70000 must be within 0..65535", () -> d.withAddress("127.0.0.1", 70000));
        refused("maxDatagramBytes=65508 must be within 1..65507", () -> d.withMaxDatagramBytes(65508));
        refused("receiveBufferBytes=10", () -> d.withSocketBuffers(10, 4096));
        refused("host must not be empty", () -> d.withAddress("", 0));
    }

    @Test
    void tcpConfigShouldNameTheFieldAndLimit() {
        TcpConfig d = TcpConfig.defaults();
        refused("host='localhost' must be an IP literal", () -> d.withAddress("localhost", 0));
        refused("maxFrameBytes=0 must be within 1..16777216", () -> d.withMaxFrameBytes(0));
        refused("maxQueuedBytes=100 needs to be at least maxFrameBytes=65536", () -> d.withQueue(10, 100));
        refused("reconnectBackoffMin=PT2S needs to be at most reconnectBackoffMax=PT1S",
                () -> d.withReconnect(Duration.ofSeconds(2), Duration.ofSeconds(1), 3));
        refused("maxConnectAttempts=0", () -> d.withReconnect(Duration.ofMillis(1), Duration.ofMillis(1), 0));
        refused("helloTimeout=PT0S", () -> d.withTimeouts(Duration.ofSeconds(1), Duration.ZERO));
        refused("maxPeers=0", () -> d.withLimits(0, 1));
    }

    @Test
    void faultConfigShouldNameTheFieldAndLimit() {
        refused("lossProbability=1.5 must be within 0..1", () -> FaultConfig.loss(1.5));
        refused("lossProbability=NaN", () -> FaultConfig.loss(Double.NaN));
        refused("duplicateProbability=-0.1", () -> FaultConfig.NONE.withDuplication(-0.1));
        refused("reorderProbability=0.1 needs reorderDelay > 0", () -> FaultConfig.NONE.withReordering(0.1, Duration.ZERO));
        refused("fixedDelay=PT-1S must be within 0..1 h", () -> FaultConfig.NONE.withDelay(Duration.ofSeconds(-1), Duration.ZERO));
        refused("jitter=PT2H", () -> FaultConfig.NONE.withDelay(Duration.ZERO, Duration.ofHours(2)));
    }

    @Test
    void otherConfigsShouldNameTheFieldAndLimit() {
        refused("dropLogInterval=PT0S must be within 1 ms..1 h", () -> new AdapterConfig(Duration.ZERO));
        refused("maxFrameBytes=0", () -> new MemNetworkConfig(0, 1));
        refused("maxInFlightFrames=0", () -> new MemNetworkConfig(1, 0));
    }
}
