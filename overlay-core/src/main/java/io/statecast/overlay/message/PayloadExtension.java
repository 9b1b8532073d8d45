package io.statecast.overlay.message;

import java.util.Arrays;
import java.util.Objects;

/**
 * The blueprint's <em>payload extension</em>: the application's data.
 *
 * @param data the bytes; owned by this record once constructed (callers must not mutate them)
 */
public record PayloadExtension(byte[] data) implements Extension {

    /** Requires data. */
    public PayloadExtension {
        Objects.requireNonNull(data, "data");
    }

    @Override
    public int type() {
        return PAYLOAD;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PayloadExtension p && Arrays.equals(data, p.data);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "Payload[" + data.length + " bytes]";
    }
}
