package io.statecast.overlay.message;

import java.util.Arrays;
import java.util.Objects;

/**
 * An extension of a type this version does not know. Kept intact so that a node forwards messages
 * of newer peers without losing what they carry.
 *
 * @param type wire type code (not {@link Extension#PAYLOAD}, {@link Extension#FSM} or {@link Extension#FIELDS})
 * @param body the raw body
 */
public record UnknownExtension(int type, byte[] body) implements Extension {

    /** Checks the type code. */
    public UnknownExtension {
        Objects.requireNonNull(body, "body");
        if (type <= 0 || type > 255 || type == PAYLOAD || type == FSM || type == FIELDS) {
            throw new IllegalArgumentException("unknown-extension type must be 3 or 5..255, got " + type);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UnknownExtension u && type == u.type && Arrays.equals(body, u.body);
    }

    @Override
    public int hashCode() {
        return 31 * type + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "Extension[type=" + type + ", " + body.length + " bytes]";
    }
}
