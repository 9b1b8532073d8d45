package io.statecast.messagestore.deploy;

import java.io.IOException;
import java.io.InputStream;

/** Bounded reading shared by the spec sources. */
final class Sources {

    private Sources() {
    }

    /** Reads at most {@code maxBytes}; one byte more fails, naming {@code what}. */
    static byte[] readBounded(InputStream in, int maxBytes, String what) throws IOException {
        byte[] data = in.readNBytes(maxBytes + 1);
        if (data.length > maxBytes) {
            throw new IOException(what + " is larger than the limit of " + maxBytes + " bytes");
        }
        return data;
    }
}
