package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What the server logs or echoes of a malformed request cannot forge log lines or reach a terminal. */
class RequestGateTest {

    @Test
    void shouldReduceQuotedClientBytesToBoundedPrintableAscii() {
        assertEquals("invalid version format: HT?[31m?FAKE LOG LINE??", RequestGate.printable(
                "invalid version format: HT\u001b[31m\nFAKE LOG LINE\u00ff\u2028"));
        String longText = "x".repeat(5000);
        assertEquals("x".repeat(200) + "...", RequestGate.printable(longText));
        assertEquals("plain", RequestGate.printable("plain"));
    }
}
