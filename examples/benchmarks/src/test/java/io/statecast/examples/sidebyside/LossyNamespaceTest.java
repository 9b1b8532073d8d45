package io.statecast.examples.sidebyside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The loss chain's counters as nft prints them (the rules themselves run in it's tests, as root). */
class LossyNamespaceTest {

    @Test
    void shouldReadEveryDatagramAndTheDroppedOnes() throws IOException {
        String text = """
                table inet statecast_sbs {
                	chain in {
                		type filter hook input priority filter; policy accept;
                		meta l4proto udp counter packets 3298 bytes 412000
                		meta l4proto udp numgen random mod 100 < 5 counter packets 146 bytes 18250 drop
                	}
                }
                """;
        assertEquals(new LossyNamespace.Counts(3298, 146), LossyNamespace.parseCounts(text));
    }

    @Test
    void shouldCountNothingDroppedWithoutALossRule() throws IOException {
        String text = "chain in {\n\tmeta l4proto udp counter packets 12 bytes 960\n}\n";
        assertEquals(new LossyNamespace.Counts(12, 0), LossyNamespace.parseCounts(text));
    }

    @Test
    void shouldRefuseOutputWithoutACounter() {
        IOException e = assertThrows(IOException.class, () -> LossyNamespace.parseCounts("Error: No such file or directory"));
        assertTrue(e.getMessage().startsWith("no counter in the loss chain"), e.getMessage());
        IOException nan = assertThrows(IOException.class,
                () -> LossyNamespace.parseCounts("meta l4proto udp counter packets many bytes 0"));
        assertTrue(nan.getMessage().startsWith("nft's counter is not a number"), nan.getMessage());
    }
}
