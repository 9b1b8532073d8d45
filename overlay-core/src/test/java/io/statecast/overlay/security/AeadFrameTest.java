package io.statecast.overlay.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.security.FrameAuthenticator.Verdict;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@code mode: aead}: frames encrypted after their clear prefix, the GCM tag in the MAC's place. */
class AeadFrameTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final int CLEAR = FrameAuthenticator.CLEAR_PREFIX_BYTES;

    private static byte[] body(int size, long seed) {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private static byte[] sealed(FrameAuthenticator sender, byte[] body, boolean bulk) {
        ByteBuf frame = Unpooled.buffer(body.length + FrameAuthenticator.TRAILER_BYTES);
        frame.writeBytes(body);
        sender.seal(frame, bulk);
        return ByteBufUtil.getBytes(frame);
    }

    private static FrameAuthenticator aead(OverlayKeys keys, long epoch) {
        return new FrameAuthenticator(keys, epoch, true);
    }

    @Test
    void shouldRoundTripHidingEverythingAfterTheClearPrefix() {
        FrameAuthenticator a = aead(FrameAuthenticatorTest.K1, 1);
        FrameAuthenticator b = aead(FrameAuthenticatorTest.K1, 2);
        for (int size : new int[] {1, CLEAR, CLEAR + 1, 60, 1024, 65_000}) {
            byte[] body = body(size, SEED + size);
            byte[] sealed = sealed(a, body, size > 256);
            assertEquals(size + FrameAuthenticator.TRAILER_BYTES, sealed.length);
            int clear = Math.min(CLEAR, size);
            assertArrayEquals(Arrays.copyOf(body, clear), Arrays.copyOf(sealed, clear), "the header stays readable");
            if (size > CLEAR + 8) {
                assertFalse(Arrays.equals(Arrays.copyOfRange(body, clear, size), Arrays.copyOfRange(sealed, clear, size)),
                        "the rest is encrypted");
            }
            ByteBuf frame = Unpooled.wrappedBuffer(sealed);
            assertEquals(Verdict.OK, b.verify(frame), "size " + size);
            assertArrayEquals(body, ByteBufUtil.getBytes(frame), "size " + size);
        }
    }

    @Test
    void shouldRefuseEverySingleBitFlipAndReplays() {
        FrameAuthenticator a = aead(FrameAuthenticatorTest.K1, 1);
        byte[] sealed = sealed(a, body(80, SEED), false);
        for (int bit = 0; bit < sealed.length * 8; bit++) {
            byte[] flipped = sealed.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            Verdict expected = bit / 8 == sealed.length - FrameAuthenticator.TRAILER_BYTES ? Verdict.UNKNOWN_KEY : Verdict.BAD_MAC;
            assertEquals(expected, aead(FrameAuthenticatorTest.K1, 9).verify(Unpooled.wrappedBuffer(flipped)), "bit " + bit);
        }
        FrameAuthenticator b = aead(FrameAuthenticatorTest.K1, 9);
        assertEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(sealed.clone())));
        assertEquals(Verdict.REPLAY, b.verify(Unpooled.wrappedBuffer(sealed.clone())));
        byte[] bulk = sealed(a, body(300, SEED), true);
        assertEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(bulk.clone())), "the bulk stream's counter 0");
        assertEquals(Verdict.REPLAY, b.verify(Unpooled.wrappedBuffer(bulk)));
    }

    @Test
    void shouldNotMixEncryptedAndAuthenticatedOnlyFrames() {
        byte[] body = body(100, SEED);
        assertEquals(Verdict.BAD_MAC, new FrameAuthenticator(FrameAuthenticatorTest.K1, 2)
                .verify(Unpooled.wrappedBuffer(sealed(aead(FrameAuthenticatorTest.K1, 1), body, false))));
        assertEquals(Verdict.BAD_MAC, aead(FrameAuthenticatorTest.K1, 2)
                .verify(Unpooled.wrappedBuffer(sealed(new FrameAuthenticator(FrameAuthenticatorTest.K1, 1), body, false))));
        assertEquals(Verdict.BAD_MAC, aead(FrameAuthenticatorTest.K1, 2)
                .verify(Unpooled.wrappedBuffer(sealed(aead(FrameAuthenticatorTest.K1_OTHER_SECRET, 1), body, false))));
    }

    @Test
    void shouldNeverThrowOrAcceptOnRandomFrames() {
        SplittableRandom random = new SplittableRandom(SEED);
        FrameAuthenticator a = aead(FrameAuthenticatorTest.K1, 1);
        FrameAuthenticator b = aead(FrameAuthenticatorTest.K1, 2);
        for (int i = 0; i < 10_000; i++) {
            byte[] original = sealed(a, body(random.nextInt(1, 300), i), random.nextBoolean());
            byte[] frame = original.clone();
            int at = random.nextInt(frame.length);
            frame[at] ^= (byte) random.nextInt(1, 256);
            if (random.nextInt(4) == 0) {
                frame = Arrays.copyOf(frame, random.nextInt(frame.length));
            }
            assertNotEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(frame)), "case " + i + " (seed " + SEED + ")");
        }
    }
}
