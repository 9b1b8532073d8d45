package io.statecast.overlay.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.security.FrameAuthenticator.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FrameAuthenticatorTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    static OverlayKeys keys(String text) {
        try {
            return OverlayKeys.parse(text, "test");
        } catch (KeyFileException e) {
            throw new AssertionError(e);
        }
    }

    static final OverlayKeys K1 = keys("1 " + OverlayKeysTest.secret(11, 32));
    static final OverlayKeys K2 = keys("2 " + OverlayKeysTest.secret(22, 32));
    static final OverlayKeys K1_OTHER_SECRET = keys("1 " + OverlayKeysTest.secret(99, 32));

    private static byte[] body(int size, long seed) {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private static ByteBuf sealed(FrameAuthenticator sender, byte[] body, boolean bulk) {
        ByteBuf frame = Unpooled.buffer(body.length + FrameAuthenticator.TRAILER_BYTES);
        frame.writeBytes(body);
        sender.seal(frame, bulk);
        assertEquals(body.length + FrameAuthenticator.TRAILER_BYTES, frame.readableBytes());
        return frame;
    }

    private static byte[] bytes(ByteBuf b) {
        return ByteBufUtil.getBytes(b);
    }

    @Test
    void shouldRoundTripAndCutTheTrailerOff() {
        FrameAuthenticator a = new FrameAuthenticator(K1, 1);
        FrameAuthenticator b = new FrameAuthenticator(K1, 2);
        for (int size : new int[] {1, 60, 1024, 65_000}) {
            byte[] body = body(size, SEED + size);
            ByteBuf frame = sealed(a, body, size > 256);
            frame.readerIndex(0);
            assertEquals(Verdict.OK, b.verify(frame));
            assertArrayEquals(body, bytes(frame));
        }
    }

    @Test
    void shouldRefuseEverySingleBitFlip() {
        FrameAuthenticator a = new FrameAuthenticator(K1, 1);
        byte[] sealed = bytes(sealed(a, body(80, SEED), false));
        assertEquals(Verdict.OK, new FrameAuthenticator(K1, 9).verify(Unpooled.wrappedBuffer(sealed.clone())));
        for (int bit = 0; bit < sealed.length * 8; bit++) {
            byte[] flipped = sealed.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            Verdict v = new FrameAuthenticator(K1, 9).verify(Unpooled.wrappedBuffer(flipped));
            int at = bit / 8;
            Verdict expected = at == sealed.length - FrameAuthenticator.TRAILER_BYTES ? Verdict.UNKNOWN_KEY : Verdict.BAD_MAC;
            assertEquals(expected, v, "bit " + bit + " flipped (seed " + SEED + ")");
        }
    }

    @Test
    void shouldRefuseEveryTruncation() {
        FrameAuthenticator a = new FrameAuthenticator(K1, 1);
        byte[] sealed = bytes(sealed(a, body(40, SEED), false));
        for (int len = 0; len < sealed.length; len++) {
            Verdict v = new FrameAuthenticator(K1, 9).verify(Unpooled.wrappedBuffer(sealed, 0, len));
            if (len <= FrameAuthenticator.TRAILER_BYTES) {
                assertEquals(Verdict.TRUNCATED, v, "length " + len);
            } else {
                assertNotEquals(Verdict.OK, v, "length " + len);
            }
        }
        // and from the front: the MAC covers the frame's start too
        for (int cut = 1; cut < sealed.length - FrameAuthenticator.TRAILER_BYTES; cut++) {
            assertNotEquals(Verdict.OK, new FrameAuthenticator(K1, 9).verify(Unpooled.wrappedBuffer(sealed, cut, sealed.length - cut)));
        }
    }

    @Test
    void shouldRefuseAReplayEvenInTheOtherStreamOrAfterOtherFrames() {
        FrameAuthenticator a = new FrameAuthenticator(K1, 1);
        FrameAuthenticator b = new FrameAuthenticator(K1, 2);
        byte[] first = bytes(sealed(a, body(30, SEED), false));
        byte[] bulk = bytes(sealed(a, body(300, SEED), true));
        assertEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(first.clone())));
        assertEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(bulk.clone())), "streams count separately: both counter 0");
        assertEquals(Verdict.REPLAY, b.verify(Unpooled.wrappedBuffer(first.clone())));
        for (int i = 0; i < 10; i++) {
            assertEquals(Verdict.OK, b.verify(sealed(a, body(30, i), false)));
        }
        assertEquals(Verdict.REPLAY, b.verify(Unpooled.wrappedBuffer(first.clone())));
        assertEquals(Verdict.REPLAY, b.verify(Unpooled.wrappedBuffer(bulk.clone())));
    }

    @Test
    void shouldAcceptReorderingWithinTheWindowAndRefuseFarBehind() {
        FrameAuthenticator a = new FrameAuthenticator(K1, 1);
        FrameAuthenticator b = new FrameAuthenticator(K1, 2);
        List<byte[]> frames = new ArrayList<>();
        int n = ReplayWindow.SIZE + 100;
        for (int i = 0; i < n; i++) {
            frames.add(bytes(sealed(a, body(20, i), false)));
        }
        assertEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(frames.get(n - 1))));
        int oldestInWindow = n - ReplayWindow.SIZE;
        for (int i = n - 2; i >= oldestInWindow; i--) {
            assertEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(frames.get(i).clone())), "frame " + i);
        }
        assertEquals(Verdict.REPLAY, b.verify(Unpooled.wrappedBuffer(frames.get(oldestInWindow - 1))), "far behind");
        assertEquals(Verdict.REPLAY, b.verify(Unpooled.wrappedBuffer(frames.get(0))));
    }

    @Test
    void shouldAcceptASenderThatRestartsWithANewEpoch() {
        FrameAuthenticator b = new FrameAuthenticator(K1, 2);
        FrameAuthenticator before = new FrameAuthenticator(K1, 0x1111);
        byte[] old = null;
        for (int i = 0; i < 50; i++) {
            old = bytes(sealed(before, body(20, i), false));
            assertEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(old.clone())));
        }
        FrameAuthenticator after = new FrameAuthenticator(K1, 0x2222); // counters from 0 again
        for (int i = 0; i < 5; i++) {
            assertEquals(Verdict.OK, b.verify(sealed(after, body(20, i), false)), "restarted sender, frame " + i);
        }
        assertEquals(Verdict.REPLAY, b.verify(Unpooled.wrappedBuffer(old)), "the old epoch's window is kept");
    }

    @Test
    void shouldRefuseOtherKeysAndAcceptEitherKeyOfARotation() {
        FrameAuthenticator receiver = new FrameAuthenticator(K1, 2);
        assertEquals(Verdict.UNKNOWN_KEY, receiver.verify(sealed(new FrameAuthenticator(K2, 3), body(20, 1), false)));
        assertEquals(Verdict.BAD_MAC, receiver.verify(sealed(new FrameAuthenticator(K1_OTHER_SECRET, 4), body(20, 1), false)));

        OverlayKeys both = keys("2 " + OverlayKeysTest.secret(22, 32) + "\n1 " + OverlayKeysTest.secret(11, 32));
        receiver.setKeys(both);
        assertEquals(Verdict.OK, receiver.verify(sealed(new FrameAuthenticator(K2, 3), body(20, 1), false)));
        assertEquals(Verdict.OK, receiver.verify(sealed(new FrameAuthenticator(K1, 5), body(20, 1), false)));

        FrameAuthenticator sender = new FrameAuthenticator(K1, 6);
        sender.setKeys(both);
        ByteBuf frame = sealed(sender, body(20, 1), false);
        assertEquals(2, frame.getUnsignedByte(frame.writerIndex() - FrameAuthenticator.TRAILER_BYTES), "seals with the first key");
        receiver.setKeys(K1);
        assertEquals(Verdict.UNKNOWN_KEY, receiver.verify(frame));
    }

    @Test
    void shouldNeverThrowOrAcceptOnRandomFrames() {
        SplittableRandom random = new SplittableRandom(SEED);
        FrameAuthenticator b = new FrameAuthenticator(K1, 2);
        FrameAuthenticator a = new FrameAuthenticator(K1, 1);
        for (int i = 0; i < 20_000; i++) {
            byte[] frame;
            if (random.nextBoolean()) {
                frame = new byte[random.nextInt(200)];
                random.nextBytes(frame);
                if (frame.length > FrameAuthenticator.TRAILER_BYTES && random.nextBoolean()) {
                    frame[frame.length - FrameAuthenticator.TRAILER_BYTES] = 1; // a known key id
                }
            } else { // a real frame with random bytes changed
                byte[] original = bytes(sealed(a, body(random.nextInt(1, 100), i), false));
                frame = original.clone();
                for (int k = random.nextInt(1, 4); k > 0; k--) {
                    int at = random.nextInt(frame.length);
                    frame[at] ^= (byte) random.nextInt(1, 256);
                }
                if (java.util.Arrays.equals(original, frame)) {
                    continue; // two changes of one byte cancelled out: the genuine frame
                }
            }
            assertNotEquals(Verdict.OK, b.verify(Unpooled.wrappedBuffer(frame)), "case " + i + " (seed " + SEED + ")");
        }
    }
}
