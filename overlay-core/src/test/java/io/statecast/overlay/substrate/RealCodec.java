package io.statecast.overlay.substrate;

import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.ProtocolMessage;
import org.junit.jupiter.api.Assumptions;

/**
 * The real {@link MessageCodec} for tests that go through the adapter end to end. Until the codec
 * is merged its stub throws {@link UnsupportedOperationException}; those tests are then reported as
 * skipped (aborted) with this message instead of failing, and run once the codec exists.
 */
final class RealCodec {

    private RealCodec() {
    }

    static MessageCodec assumeAvailable(int overlayHash) {
        MessageCodec codec = new MessageCodec(overlayHash, MessageCodec.DEFAULT_MAX_MESSAGE_BYTES);
        try {
            codec.encodedSize(new ProtocolMessage(1, new byte[1]));
        } catch (UnsupportedOperationException e) {
            Assumptions.abort("needs the real MessageCodec, which is still a stub on this branch: " + e.getMessage());
        }
        return codec;
    }
}
