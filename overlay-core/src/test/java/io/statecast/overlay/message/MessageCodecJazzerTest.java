package io.statecast.overlay.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * Coverage-guided fuzzing of {@link MessageCodec#decode} with Jazzer, with the same oracle as
 * {@link MessageCodecFuzzTest}: a message that re-encodes to the input, or a
 * {@link DecodeException} with an offset inside the frame. Opt-in: it compiles and runs only with
 * the {@code jazzer} profile of this module (see its pom for why). Without {@code JAZZER_FUZZ}
 * Jazzer replays the checked-in inputs under
 * {@code src/test/resources/.../MessageCodecJazzerTestInputs/} (one valid frame of each shape):
 * {@code mvn -B -pl overlay-core -am test -Pjazzer -Dtest='*JazzerTest' -Dsurefire.failIfNoSpecifiedTests=false}.
 * To fuzz: {@code JAZZER_FUZZ=1 mvn -B -pl overlay-core test -Pjazzer -Dtest=MessageCodecJazzerTest
 * -Djazzer.max_duration=10m}; a finding is written into that directory and becomes a regression
 * input once committed.
 */
class MessageCodecJazzerTest {

    private static final MessageCodec CODEC = new MessageCodec(OverlayId.wireHash("fuzz"), 2048);

    @FuzzTest(maxDuration = "2m")
    void decodeOnlyReturnsACanonicalMessageOrRefuses(byte[] input) {
        ByteBuf in = Unpooled.wrappedBuffer(input);
        WireMessage message;
        try {
            message = CODEC.decode(in);
        } catch (DecodeException e) {
            assertTrue(e.offset() >= 0 && e.offset() <= input.length, e.getMessage());
            return;
        }
        ByteBuf out = Unpooled.buffer(input.length);
        CODEC.encode(message, out);
        assertArrayEquals(input, ByteBufUtil.getBytes(out), () -> "not canonical: " + ByteBufUtil.hexDump(input));
    }
}
