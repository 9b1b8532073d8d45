package io.statecast.overlay.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MessageCodecRoundTripTest {

    private static final int MESSAGES = 100_000;
    private static final int MAX_BYTES = MessageCodec.DEFAULT_MAX_MESSAGE_BYTES;

    private final long seed = Long.getLong("statecast.seed", System.nanoTime());

    @Test
    void shouldDecodeEveryRandomMessageToAnEqualMessageOfTheAnnouncedSize() throws DecodeException {
        MessageCodec codec = new MessageCodec(OverlayId.wireHash("round-trip"), MAX_BYTES);
        RandomMessages messages = new RandomMessages(new Random(seed), 2048);
        Random random = new Random(seed ^ 0x5DEECE66DL);
        ByteBuf buf = Unpooled.buffer(MAX_BYTES + 64);
        int nearMax = 0;
        try {
            for (int i = 0; i < MESSAGES; i++) {
                WireMessage message;
                if (i % 100 == 0) {
                    message = messages.nearMax(codec, random.nextInt(4));
                    nearMax++;
                } else {
                    message = messages.next();
                }
                String where = "seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + "), message #" + i + ": " + message;
                // Sometimes leave junk before the frame so offsets relative to the reader index are exercised.
                buf.clear();
                int prefix = random.nextInt(4) == 0 ? random.nextInt(16) : 0;
                buf.writeZero(prefix);
                buf.readerIndex(prefix);

                int size = codec.encodedSize(message);
                codec.encode(message, buf);
                assertEquals(size, buf.readableBytes(), "encodedSize vs bytes written, " + where);
                assertTrue(size <= MAX_BYTES, where);

                WireMessage decoded = codec.decode(buf);
                assertEquals(message, decoded, where);
                assertEquals(0, buf.readableBytes(), "decode must consume the frame, " + where);
            }
        } finally {
            buf.release();
        }
        assertEquals(MESSAGES / 100, nearMax);
    }

    @Test
    void shouldEncodeAFrameOfExactlyTheMaximumAndRefuseOneByteMore() throws DecodeException {
        long s = seed;
        MessageCodec codec = new MessageCodec(7, 4096);
        RandomMessages messages = new RandomMessages(new Random(s), 64);
        for (int i = 0; i < 1000; i++) {
            WireMessage atMax = messages.nearMax(codec, 0);
            assertEquals(codec.maxMessageBytes(), codec.encodedSize(atMax), "seed=" + s);
            ByteBuf buf = Unpooled.buffer();
            codec.encode(atMax, buf);
            assertEquals(atMax, codec.decode(buf), "seed=" + s);
            buf.release();
        }
        WireMessage over = new ProtocolMessage(1, new byte[codec.maxMessageBytes() - MessageCodec.MIN_PROTOCOL_FRAME_BYTES + 1]);
        ByteBuf out = Unpooled.buffer();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.encode(over, out));
        assertTrue(e.getMessage().contains((codec.maxMessageBytes() + 1) + " bytes > maxMessageBytes=" + codec.maxMessageBytes()),
                e.getMessage());
        assertEquals(0, out.writerIndex(), "nothing written for a refused message");
        out.release();
    }
}
