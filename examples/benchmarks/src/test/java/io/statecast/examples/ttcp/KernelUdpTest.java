package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KernelUdpTest {

    private static final String SNMP = """
            Ip: Forwarding DefaultTTL
            Ip: 2 64
            Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
            Udp: 100 2 7 90 5 0 0 0 0
            UdpLite: InDatagrams NoPorts
            UdpLite: 0 0
            """;

    @Test
    void shouldReadTheUdpLinesOnly() {
        Map<String, Long> m = KernelUdp.parse(SNMP);
        assertEquals(9, m.size());
        assertEquals(5L, m.get("RcvbufErrors"));
        assertEquals(100L, m.get("InDatagrams"));
    }

    @Test
    void deltaShouldSubtractCountersPresentInBoth() {
        Map<String, Long> d = KernelUdp.delta(Map.of("RcvbufErrors", 5L, "Gone", 1L), Map.of("RcvbufErrors", 12L, "New", 3L));
        assertEquals(Map.of("RcvbufErrors", 7L), d);
    }

    @Test
    void garbageShouldGiveNothing() {
        assertTrue(KernelUdp.parse("nothing here\n").isEmpty());
        assertTrue(KernelUdp.parse("Udp: A B\n").isEmpty());
    }
}
