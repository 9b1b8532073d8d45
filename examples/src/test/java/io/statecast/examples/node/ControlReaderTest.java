package io.statecast.examples.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ControlReaderTest {

    private static ControlReader reader(String text, int max) {
        return new ControlReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), max);
    }

    @Test
    void shouldSplitLinesDropCarriageReturnsAndReturnAnUnterminatedLastLine() throws IOException {
        ControlReader r = reader("stats\r\n\nping x\nquit", 64);

        assertEquals("stats", r.readLine());
        assertEquals("", r.readLine());
        assertEquals("ping x", r.readLine());
        assertEquals("quit", r.readLine());
        assertNull(r.readLine());
    }

    @Test
    void shouldSkipATooLongLineWithoutBufferingItAndGoOn() throws IOException {
        ControlReader r = reader("x".repeat(100_000) + "\nstats\n" + "y".repeat(9) + "\n" + "z".repeat(8) + "\n", 8);

        assertSame(ControlReader.TOO_LONG, r.readLine());
        assertEquals("stats", r.readLine());
        assertSame(ControlReader.TOO_LONG, r.readLine());
        assertEquals("z".repeat(8), r.readLine());
        assertNull(r.readLine());
    }

    @Test
    void shouldReplaceInvalidUtf8() throws IOException {
        ControlReader r = new ControlReader(new ByteArrayInputStream(new byte[] {'a', (byte) 0xff, 'b', '\n'}), 64);

        assertEquals("a\ufffdb", r.readLine());
    }
}
