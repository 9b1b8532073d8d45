package io.statecast.services;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The incast record format: concatenations of record lists decode to the records; hostile bytes are refused. */
class IncastPayloadTest {

    @Test
    void concatenatedRecordsShouldDecodeInOrder() throws Exception {
        ByteArrayOutputStream merged = new ByteArrayOutputStream();
        merged.writeBytes(IncastPayload.record("a".getBytes(UTF_8)));
        merged.writeBytes(IncastPayload.record(new byte[0]));
        byte[] inner = concat(IncastPayload.record("b".getBytes(UTF_8)), IncastPayload.record("cd".getBytes(UTF_8)));
        merged.writeBytes(inner); // a merge of a merge
        List<byte[]> r = IncastPayload.records(merged.toByteArray(), 10);
        assertEquals(4, r.size());
        assertArrayEquals("a".getBytes(UTF_8), r.get(0));
        assertArrayEquals(new byte[0], r.get(1));
        assertArrayEquals("b".getBytes(UTF_8), r.get(2));
        assertArrayEquals("cd".getBytes(UTF_8), r.get(3));
        assertEquals(0, IncastPayload.records(new byte[0], 10).size());
    }

    @Test
    void malformedPayloadsShouldBeRefusedWithWhereAndWhy() {
        assertMalformed(new byte[] {0, 0, 0}, "a length prefix needs 4");
        assertMalformed(new byte[] {0, 0, 0, 5, 1, 2}, "length 5 but 2 bytes left");
        assertMalformed(new byte[] {(byte) 0xff, 0, 0, 0}, "length 4278190080");
        byte[] three = concat(concat(IncastPayload.record(new byte[1]), IncastPayload.record(new byte[1])),
                IncastPayload.record(new byte[1]));
        IncastPayload.MalformedIncastPayloadException e = assertThrows(
                IncastPayload.MalformedIncastPayloadException.class, () -> IncastPayload.records(three, 2));
        assertTrue(e.getMessage().contains("more than 2 records"), e.getMessage());
    }

    @Test
    void randomBytesShouldDecodeOrBeRefusedNeverThrowOtherwise() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random r = new Random(seed);
        int cases = Integer.getInteger("statecast.fuzz.cases", 50_000) / 10;
        for (int i = 0; i < cases; i++) {
            byte[] b = new byte[r.nextInt(24)];
            r.nextBytes(b);
            if (b.length >= 4 && r.nextBoolean()) {
                b[0] = 0;
                b[1] = 0;
                b[2] = 0;
                b[3] = (byte) r.nextInt(24);
            }
            try {
                IncastPayload.records(b, 100);
            } catch (IncastPayload.MalformedIncastPayloadException expected) {
                // refused with a message: fine
            } catch (RuntimeException other) {
                throw new AssertionError("seed " + seed + " case " + i + ": " + other, other);
            }
        }
    }

    private static void assertMalformed(byte[] b, String text) {
        IncastPayload.MalformedIncastPayloadException e = assertThrows(
                IncastPayload.MalformedIncastPayloadException.class, () -> IncastPayload.records(b, 100));
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
