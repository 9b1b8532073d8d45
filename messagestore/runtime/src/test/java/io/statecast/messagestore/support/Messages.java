package io.statecast.messagestore.support;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Builds overlay messages for tests. */
public final class Messages {

    private Messages() {
    }

    /** Tree address {@code id}. */
    public static LogicalAddress a(long id) {
        return new TreeAddress(id);
    }

    /** A multicast data message of {@code serviceId} from {@code source}, arriving via {@code previousHop}. */
    public static OverlayMessage payload(int serviceId, long messageId, long source, long previousHop, String text) {
        return new OverlayMessage(DeliveryMode.MULTICAST, 250, a(source), null, a(previousHop), null, List.of(
                new FsmExtension(serviceId, FsmExtension.PAYLOAD_TYPE, messageId),
                new PayloadExtension(text.getBytes(StandardCharsets.UTF_8))));
    }

    /** A unicast data message. */
    public static OverlayMessage unicastPayload(int serviceId, long messageId, long source, long destination,
            long previousHop, String text) {
        return new OverlayMessage(DeliveryMode.UNICAST, 250, a(source), a(destination), a(previousHop), null, List.of(
                new FsmExtension(serviceId, FsmExtension.PAYLOAD_TYPE, messageId),
                new PayloadExtension(text.getBytes(StandardCharsets.UTF_8))));
    }

    /** A unicast control message of {@code type} (no payload). */
    public static OverlayMessage control(int serviceId, int type, long messageId, long source, long destination,
            long previousHop) {
        return new OverlayMessage(DeliveryMode.UNICAST, 250, a(source), a(destination), a(previousHop), null,
                List.<Extension>of(new FsmExtension(serviceId, (byte) type, messageId)));
    }

    /** A multicast control message of {@code type} on the tree rooted at {@code root}, one hop. */
    public static OverlayMessage multicastControl(int serviceId, int type, long messageId, long source, long root,
            long previousHop) {
        return new OverlayMessage(DeliveryMode.MULTICAST, 0, a(source), null, a(previousHop), a(root),
                List.<Extension>of(new FsmExtension(serviceId, (byte) type, messageId)));
    }
}
