package io.statecast.overlay.message;

import java.util.Arrays;
import java.util.Objects;

/**
 * A protocol message of an overlay node (Hello, Goodbye, NewNode, …). The codec frames it; the
 * body's layout belongs to the overlay protocol that sent it.
 *
 * @param type protocol-defined message type, 0..255
 * @param body protocol-defined bytes
 */
public record ProtocolMessage(int type, byte[] body) implements WireMessage {

    /** Checks the type range. */
    public ProtocolMessage {
        Objects.requireNonNull(body, "body");
        if (type < 0 || type > 255) {
            throw new IllegalArgumentException("protocol message type must be 0..255, got " + type);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProtocolMessage p && type == p.type && Arrays.equals(body, p.body);
    }

    @Override
    public int hashCode() {
        return 31 * type + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "ProtocolMessage[type=" + type + ", " + body.length + " bytes]";
    }
}
