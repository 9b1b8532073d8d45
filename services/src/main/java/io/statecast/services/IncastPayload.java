package io.statecast.services;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The payload format of the {@code incast} service: a list of <em>records</em>, each a 4-byte
 * big-endian length followed by that many bytes. A source sends one record (its contribution);
 * a node merging several messages concatenates their payloads, which is again a record list, so
 * merges of merges need no unwrapping. The destination splits what it receives with
 * {@link #records(byte[], int)}.
 *
 * <p>Decoding treats the bytes as hostile: every length is checked against what is left, and the
 * number of records is bounded by the caller.
 */
public final class IncastPayload {

    /** Bytes of a record's length prefix. */
    public static final int HEADER_BYTES = 4;

    private IncastPayload() {
    }

    /** One record holding {@code contribution}: what a source sends. */
    public static byte[] record(byte[] contribution) {
        Objects.requireNonNull(contribution, "contribution");
        return ByteBuffer.allocate(HEADER_BYTES + contribution.length).putInt(contribution.length).put(contribution)
                .array();
    }

    /**
     * The contributions in {@code payload}, in order.
     *
     * @param maxRecords most records accepted
     * @throws MalformedIncastPayloadException if a length runs past the end, the payload ends
     *         inside a length prefix, or there are more than {@code maxRecords} records
     */
    public static List<byte[]> records(byte[] payload, int maxRecords) throws MalformedIncastPayloadException {
        Objects.requireNonNull(payload, "payload");
        List<byte[]> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(payload);
        while (b.hasRemaining()) {
            if (out.size() == maxRecords) {
                throw new MalformedIncastPayloadException("more than " + maxRecords + " records");
            }
            if (b.remaining() < HEADER_BYTES) {
                throw new MalformedIncastPayloadException("record " + out.size() + " at byte " + b.position()
                        + ": " + b.remaining() + " bytes left, a length prefix needs " + HEADER_BYTES);
            }
            int at = b.position();
            int length = b.getInt();
            if (length < 0 || length > b.remaining()) {
                throw new MalformedIncastPayloadException("record " + out.size() + " at byte " + at + ": length "
                        + Integer.toUnsignedString(length) + " but " + b.remaining() + " bytes left");
            }
            byte[] r = new byte[length];
            b.get(r);
            out.add(r);
        }
        return out;
    }

    /** A payload that is not a record list. */
    public static final class MalformedIncastPayloadException extends Exception {
        private static final long serialVersionUID = 1L;

        /** @param message what is wrong, and where */
        public MalformedIncastPayloadException(String message) {
            super("malformed incast payload: " + message);
        }
    }
}
