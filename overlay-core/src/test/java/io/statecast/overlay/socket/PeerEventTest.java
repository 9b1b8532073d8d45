package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Decoding a failure detector's reports into {@link PeerEvent}s, and what is not one. */
class PeerEventTest {

    private static final TreeAddress PEER = new TreeAddress(7);
    private static final TreeAddress ME = new TreeAddress(1);

    private static OverlayMessage report(int service, int type) {
        return new OverlayMessage(DeliveryMode.FLOOD, 0, PEER, null, PEER, PEER,
                List.<Extension>of(new FsmExtension(service, (byte) type, 99)));
    }

    @Test
    void shouldDecodeTheThreeTypes() {
        PeerEventTypes t = PeerEventTypes.DEFAULT;
        assertEquals(Optional.of(new PeerEvent(12, PEER, PeerEvent.Kind.UP, PeerEvent.Cause.NONE)),
                PeerEvent.from(report(12, 0x21), 12, t));
        assertEquals(Optional.of(new PeerEvent(12, PEER, PeerEvent.Kind.DOWN, PeerEvent.Cause.TIMEOUT)),
                PeerEvent.from(report(12, 0x22), 12, t));
        assertEquals(Optional.of(new PeerEvent(12, PEER, PeerEvent.Kind.DOWN, PeerEvent.Cause.CRASH)),
                PeerEvent.from(report(12, 0x23), 12, t));
        PeerEventTypes own = new PeerEventTypes((byte) 5, (byte) 6, (byte) 7);
        assertEquals(PeerEvent.Kind.DOWN, PeerEvent.from(report(40, 7), 40, own).orElseThrow().kind());
    }

    @Test
    void shouldLeaveEverythingElseAlone() {
        PeerEventTypes t = PeerEventTypes.DEFAULT;
        assertEquals(Optional.empty(), PeerEvent.from(report(13, 0x21), 12, t), "another service");
        assertEquals(Optional.empty(), PeerEvent.from(report(12, 0x20), 12, t), "another type (the heartbeat itself)");
        OverlayMessage data = new OverlayMessage(DeliveryMode.UNICAST, 5, PEER, ME, PEER, null, List.<Extension>of(
                new FsmExtension(12, FsmExtension.PAYLOAD_TYPE, 1), new PayloadExtension(new byte[] {1})));
        assertEquals(Optional.empty(), PeerEvent.from(data, 12, t), "a data message");
        OverlayMessage plain = new OverlayMessage(DeliveryMode.UNICAST, 5, PEER, ME, PEER, null,
                List.<Extension>of(new PayloadExtension(new byte[] {1})));
        assertEquals(Optional.empty(), PeerEvent.from(plain, 12, t), "no FSM extension");
    }

    @Test
    void shouldRefuseInconsistentValues() {
        assertThrows(IllegalArgumentException.class, () -> new PeerEvent(1, PEER, PeerEvent.Kind.UP, PeerEvent.Cause.TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> new PeerEvent(1, PEER, PeerEvent.Kind.DOWN, PeerEvent.Cause.NONE));
        assertThrows(IllegalArgumentException.class, () -> new PeerEventTypes((byte) 1, (byte) 1, (byte) 2));
        assertThrows(IllegalArgumentException.class, () -> new PeerEventTypes((byte) 1, (byte) 0x80, (byte) 2));
    }
}
