package io.statecast.overlay.message;

import io.statecast.overlay.address.LogicalAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The node that first sent the message a service message is about: its <em>origin</em>.
 *
 * <p>A data message is about itself, and its origin is its source. A control message (an ACK, a
 * NACK, a request) is about a data message, named by the MessageID in its FSM extension; when the
 * node sending it is not that message's source (a receiver acknowledging, a relay asking its
 * children), it carries an <em>origin extension</em>: extension type {@value #EXTENSION_TYPE}, the
 * origin's 8-byte logical address. (origin, MessageID) names a message across the overlay, so a
 * MessageStore keys message-scope instances by it: a control message forged with another origin
 * reaches another instance, not the real message's.
 *
 * <p>The extension travels as an {@link UnknownExtension}, so nodes of any version forward it
 * unchanged; a message without it (or with a malformed one) has its source as origin.
 */
public final class Origin {

    /** The extension type code of the origin extension. */
    public static final int EXTENSION_TYPE = 5;

    private Origin() {
    }

    /** The origin of {@code message}: the origin extension's address, else the source. */
    public static LogicalAddress of(OverlayMessage message) {
        List<Extension> ext = message.extensions();
        for (int i = 0, n = ext.size(); i < n; i++) {
            if (ext.get(i) instanceof UnknownExtension u && u.type() == EXTENSION_TYPE && u.body().length == 8) {
                long bits = 0;
                for (byte b : u.body()) {
                    bits = (bits << 8) | (b & 0xFF);
                }
                return LogicalAddress.fromBits(message.source().family(), bits);
            }
        }
        return message.source();
    }

    /** Whether {@code message} carries an origin extension. */
    public static boolean present(OverlayMessage message) {
        for (Extension e : message.extensions()) {
            if (e instanceof UnknownExtension u && u.type() == EXTENSION_TYPE) {
                return true;
            }
        }
        return false;
    }

    /** The origin extension naming {@code origin}. */
    public static UnknownExtension extension(LogicalAddress origin) {
        long bits = origin.toBits();
        byte[] body = new byte[8];
        for (int i = 0; i < 8; i++) {
            body[i] = (byte) (bits >>> (56 - 8 * i));
        }
        return new UnknownExtension(EXTENSION_TYPE, body);
    }

    /**
     * {@code extensions} with an origin extension naming {@code origin} appended, or unchanged
     * when {@code origin} is {@code null} or the message's {@code source} (the default needs none).
     */
    public static List<Extension> with(List<Extension> extensions, LogicalAddress origin, LogicalAddress source) {
        if (origin == null || origin.equals(source)) {
            return extensions;
        }
        List<Extension> out = new ArrayList<>(extensions.size() + 1);
        out.addAll(extensions);
        out.add(extension(origin));
        return out;
    }

    /** {@code message} naming {@code origin} (an existing origin extension is replaced). */
    public static OverlayMessage attach(OverlayMessage message, LogicalAddress origin) {
        List<Extension> ext = new ArrayList<>(message.extensions().size() + 1);
        for (Extension e : message.extensions()) {
            if (!(e instanceof UnknownExtension u && u.type() == EXTENSION_TYPE)) {
                ext.add(e);
            }
        }
        ext.add(extension(origin));
        return new OverlayMessage(message.mode(), message.hopLimit(), message.source(), message.destination(),
                message.previousHop(), message.root(), ext);
    }
}
