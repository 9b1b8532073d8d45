package io.statecast.overlay.forward;

import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.UnknownExtension;
import java.util.ArrayList;
import java.util.List;

/**
 * The identifier that lets nodes suppress duplicates of a flood message.
 *
 * <p>Every flood message gets, at its source, a <em>flood-identifier extension</em>: extension
 * type {@value #EXTENSION_TYPE}, an 8-byte big-endian sequence number drawn from the source's
 * message-ID generator (a random 64-bit start, then a counter). A flood is therefore named by
 * (source logical address, sequence), unique per source across restarts with overwhelming
 * probability, and independent of the payload — two identical payloads flooded twice are two
 * floods, and a copy re-forwarded by a MessageStore keeps its name. The extension travels as an
 * {@link UnknownExtension}, so nodes of any version forward it unchanged.
 *
 * <p>A flood message without this extension (from an implementation that does not add it) is
 * named by its FSM extension instead: (source, ServiceID, MessageType, MessageID). One with
 * neither cannot be deduplicated and is dropped.
 */
public final class FloodId {

    /** The extension type code of the flood identifier. */
    public static final int EXTENSION_TYPE = 3;

    private FloodId() {
    }

    /** {@code message} with a flood-identifier extension carrying {@code sequence} appended. */
    public static OverlayMessage attach(OverlayMessage message, long sequence) {
        List<Extension> ext = new ArrayList<>(message.extensions().size() + 1);
        ext.addAll(message.extensions());
        byte[] body = new byte[8];
        for (int i = 0; i < 8; i++) {
            body[i] = (byte) (sequence >>> (56 - 8 * i));
        }
        ext.add(new UnknownExtension(EXTENSION_TYPE, body));
        return new OverlayMessage(message.mode(), message.hopLimit(), message.source(), message.destination(),
                message.previousHop(), message.root(), ext);
    }

    /** True if {@code message} carries a well-formed flood identifier. */
    public static boolean present(OverlayMessage message) {
        return extension(message) != null;
    }

    /**
     * The duplicate-suppression key of a flood message, or {@code null} if it has neither a
     * flood identifier nor an FSM extension.
     */
    static Key keyOf(OverlayMessage message) {
        long source = message.source().toBits();
        UnknownExtension e = extension(message);
        if (e != null) {
            long seq = 0;
            for (byte b : e.body()) {
                seq = (seq << 8) | (b & 0xFF);
            }
            return new Key(source, 0L, seq);
        }
        FsmExtension fsm = message.fsm();
        if (fsm != null) {
            long kind = (1L << 40) | ((fsm.serviceId() & 0xFFFF_FFFFL) << 8) | (fsm.messageType() & 0xFF);
            return new Key(source, kind, fsm.messageId());
        }
        return null;
    }

    private static UnknownExtension extension(OverlayMessage message) {
        for (Extension e : message.extensions()) {
            if (e instanceof UnknownExtension u && u.type() == EXTENSION_TYPE && u.body().length == 8) {
                return u;
            }
        }
        return null;
    }

    /** A flood's name: source bits, kind (0 = flood identifier, else service/type), number. */
    record Key(long source, long kind, long id) {
    }
}
