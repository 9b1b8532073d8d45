package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TtcpPayloadTest {

    @Test
    void dataShouldRoundTripWithItsExactSize() throws TtcpFormatException {
        byte[] b = TtcpPayload.data(0x1234_5678_9abcL, 41, 100, 1_700_000_000_123_456L, 1024);

        assertEquals(1024, b.length);
        TtcpPayload.Data d = assertInstanceOf(TtcpPayload.Data.class, TtcpPayload.decode(b));
        assertEquals(new TtcpPayload.Data(0x1234_5678_9abcL, 41, 100, 1_700_000_000_123_456L, 1024), d);
    }

    @Test
    void theFillerShouldDependOnTheSequenceNumberAtEverySize() throws TtcpFormatException {
        for (int size = TtcpPayload.MIN_DATA_SIZE; size <= TtcpPayload.MIN_DATA_SIZE + 17; size++) {
            byte[] a = TtcpPayload.data(1, 5, 10, 0, size);
            byte[] b = TtcpPayload.data(1, 6, 10, 0, size);
            assertEquals(size, a.length);
            assertInstanceOf(TtcpPayload.Data.class, TtcpPayload.decode(a));
            int h = TtcpPayload.DATA_HEADER;
            if (size - 4 > h) {
                // every filler byte, the eight-byte words and the tail alike, changes with seq
                for (int i = h; i < size - 4; i++) {
                    assertTrue(a[i] != b[i] || a[i] != TtcpPayload.data(1, 7, 10, 0, size)[i],
                            "size " + size + " byte " + i + " is the same for seq 5, 6 and 7");
                }
            }
        }
    }

    @Test
    void controlPayloadsShouldRoundTrip() throws TtcpFormatException {
        assertInstanceOf(TtcpPayload.Hello.class, TtcpPayload.decode(TtcpPayload.hello()));
        assertEquals(new TtcpPayload.Done(7, 99, 1, 3), TtcpPayload.decode(TtcpPayload.done(7, 99, 1, 3)));
        assertEquals(new TtcpPayload.Fin(7, 100), TtcpPayload.decode(TtcpPayload.fin(7, 100)));
        assertEquals(new TtcpPayload.Warmed(40, 50), TtcpPayload.decode(TtcpPayload.warmed(40, 50)));
        assertTrue(new TtcpPayload.Warmed(50, 50).complete());
        assertFalse(new TtcpPayload.Warmed(49, 50).complete());
    }

    @Test
    void warmedShouldRefuseImpossibleCounts() {
        assertThrows(IllegalArgumentException.class, () -> TtcpPayload.warmed(51, 50));
        assertThrows(IllegalArgumentException.class, () -> TtcpPayload.warmed(-1, 50));
        assertThrows(IllegalArgumentException.class, () -> TtcpPayload.warmed(0, 0));
        // well sealed, but more received than sent, or of a measured run
        byte[] more = TtcpPayload.warmed(5, 50);
        ByteBuffer.wrap(more).putInt(4 + 1 + 8, 51);
        reseal(more);
        assertTrue(assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(more)).getMessage()
                .contains("WARMED run=0 received=51 count=50"));
        byte[] run = TtcpPayload.warmed(5, 50);
        ByteBuffer.wrap(run).putLong(4 + 1, 7);
        reseal(run);
        assertTrue(assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(run)).getMessage().contains("need run 0"));
        byte[] cut = java.util.Arrays.copyOf(TtcpPayload.warmed(5, 50), 4 + 1 + 8 + 4);
        reseal(cut);
        assertTrue(assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(cut)).getMessage().contains("WARMED payload of 17 bytes"));
    }

    @Test
    void warmUpShouldDecodeAsDataOfTheWarmUpsRun() throws TtcpFormatException {
        TtcpPayload.Data w = (TtcpPayload.Data) TtcpPayload.decode(TtcpPayload.warmup(3, 10, 77, 1024));
        assertEquals(new TtcpPayload.Data(TtcpPayload.WARMUP_RUN, 3, 10, 77, 1024), w);
        assertTrue(w.warmup());
        assertFalse(w.last());
        assertTrue(new TtcpPayload.Data(TtcpPayload.WARMUP_RUN, 9, 10, 0, 64).last());
        assertFalse(new TtcpPayload.Data(5, 3, 10, 0, 64).warmup());
    }

    @Test
    void theSharedEncoderShouldMakeWarmUpForRunZeroAndDataForAnyOther() {
        for (long run : new long[] {TtcpPayload.WARMUP_RUN, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x1234_5678_9abcL}) {
            byte[] expected = run == TtcpPayload.WARMUP_RUN ? TtcpPayload.warmup(4, 9, 55, 128)
                    : TtcpPayload.data(run, 4, 9, 55, 128);
            assertArrayEquals(expected, TtcpPayload.dataOrWarmup(run, 4, 9, 55, 128), "run " + run);
        }
    }

    @Test
    void onlyTheWarmUpShouldHaveRunZero() {
        assertThrows(IllegalArgumentException.class, () -> TtcpPayload.data(TtcpPayload.WARMUP_RUN, 0, 1, 0, 64));
        // a well-sealed DATA of run 0 and a WARMUP of run 7
        byte[] d = TtcpPayload.data(1, 0, 1, 0, 64);
        ByteBuffer.wrap(d).putLong(4 + 1, 0);
        reseal(d);
        assertTrue(assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(d)).getMessage().contains("DATA of run 0"));
        byte[] w = TtcpPayload.warmup(0, 1, 0, 64);
        ByteBuffer.wrap(w).putLong(4 + 1, 7);
        reseal(w);
        assertTrue(assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(w)).getMessage().contains("WARMUP of run 7"));
    }

    @Test
    void anyFlippedBitShouldFailTheChecksum() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        byte[] good = TtcpPayload.data(3, 5, 10, 123, 200);
        for (int i = 0; i < 500; i++) {
            byte[] b = good.clone();
            int at = 4 + random.nextInt(b.length - 4); // past the magic, which has its own message
            b[at] ^= (byte) (1 << random.nextInt(8));
            TtcpFormatException e = assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(b), "seed " + seed);
            assertTrue(e.getMessage().contains("CRC"), e.getMessage() + " seed " + seed);
        }
    }

    @Test
    void shouldRefuseForeignTruncatedAndInconsistentPayloads() {
        assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(null));
        assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(new byte[5]));
        byte[] chat = "hello everybody, this is chat".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(chat)).getMessage().contains("magic"));
        // a well-sealed DATA whose seq is not below its count
        byte[] b = TtcpPayload.data(1, 5, 10, 0, 64);
        ByteBuffer.wrap(b).putInt(4 + 1 + 8, 10);
        reseal(b);
        assertTrue(assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(b)).getMessage().contains("seq=10 count=10"));
        // and a WARMUP
        byte[] w = TtcpPayload.warmup(2, 3, 0, 64);
        ByteBuffer.wrap(w).putInt(4 + 1 + 8, 3);
        reseal(w);
        assertTrue(assertThrows(TtcpFormatException.class, () -> TtcpPayload.decode(w)).getMessage().contains("WARMUP seq=3 count=3"));
    }

    @Test
    void shouldRefuseSizesOutsideTheRange() {
        assertThrows(IllegalArgumentException.class, () -> TtcpPayload.data(1, 0, 1, 0, TtcpPayload.MIN_DATA_SIZE - 1));
        assertThrows(IllegalArgumentException.class, () -> TtcpPayload.data(1, 0, 1, 0, TtcpPayload.MAX_DATA_SIZE + 1));
        assertEquals(TtcpPayload.MIN_DATA_SIZE, TtcpPayload.data(1, 0, 1, 0, TtcpPayload.MIN_DATA_SIZE).length);
    }

    private static void reseal(byte[] b) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b, 0, b.length - 4);
        ByteBuffer.wrap(b).putInt(b.length - 4, (int) crc.getValue());
    }
}
