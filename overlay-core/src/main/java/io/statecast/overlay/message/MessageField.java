package io.statecast.overlay.message;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The typed value of one entry of a message's {@link MessageFields}: what protocol specs put in
 * their messages beside the payload (sequence numbers, window sizes, selective-ACK ranges, FEC
 * group keys). A closed set of types, each with a one-byte wire code; every value is bounded by
 * {@link MessageFields#MAX_VALUE_BYTES} encoded bytes.
 */
public sealed interface MessageField permits MessageField.Int, MessageField.Text, MessageField.Bytes,
        MessageField.Ranges {

    /** The wire types of a field value. */
    enum Type {
        /** A signed 64-bit integer, 8 bytes big-endian. */
        INTEGER(1, "integer"),
        /** UTF-8 text (well-formed: no lone surrogates). */
        STRING(2, "string"),
        /** Raw bytes. */
        BYTES(3, "bytes"),
        /** Disjoint ascending ranges of non-negative integers, 16 bytes each (first, last). */
        RANGES(4, "ranges");

        private final int code;
        private final String label;

        Type(int code, String label) {
            this.code = code;
            this.label = label;
        }

        /** The wire code, 1..4. */
        public int code() {
            return code;
        }

        /** The name specs use ({@code type="integer"}) and the history writes. */
        public String label() {
            return label;
        }

        /** The type with this wire code, or {@code null}. */
        public static Type ofCode(int code) {
            for (Type t : values()) {
                if (t.code == code) {
                    return t;
                }
            }
            return null;
        }

        /** The type with this label, or {@code null}. */
        public static Type ofLabel(String label) {
            for (Type t : values()) {
                if (t.label.equals(label)) {
                    return t;
                }
            }
            return null;
        }
    }

    /** This value's type. */
    Type type();

    /** Bytes of the value on the wire (without name, type and length). */
    int encodedLength();

    /**
     * The value as text, as the history and scenario files write it: an integer in decimal, a
     * string as it is, bytes in base64, ranges as {@code "1-5 9-12"}.
     */
    String text();

    /** A whole number. */
    record Int(long value) implements MessageField {
        @Override
        public Type type() {
            return Type.INTEGER;
        }

        @Override
        public int encodedLength() {
            return Long.BYTES;
        }

        @Override
        public String text() {
            return Long.toString(value);
        }
    }

    /**
     * Text, written as UTF-8.
     *
     * @param value the text; its UTF-8 form is at most {@link MessageFields#MAX_VALUE_BYTES} bytes
     */
    record Text(String value) implements MessageField {
        /** Checks the bound. */
        public Text {
            Objects.requireNonNull(value, "value");
            if (!StandardCharsets.UTF_8.newEncoder().canEncode(value)) {
                throw new IllegalArgumentException("string field is not well-formed Unicode (lone surrogate)");
            }
            int n = value.getBytes(StandardCharsets.UTF_8).length;
            if (n > MessageFields.MAX_VALUE_BYTES) {
                throw new IllegalArgumentException("string field of " + n + " UTF-8 bytes > MAX_VALUE_BYTES="
                        + MessageFields.MAX_VALUE_BYTES);
            }
        }

        @Override
        public Type type() {
            return Type.STRING;
        }

        @Override
        public int encodedLength() {
            return value.getBytes(StandardCharsets.UTF_8).length;
        }

        @Override
        public String text() {
            return value;
        }
    }

    /**
     * Raw bytes.
     *
     * @param value the bytes (copied in; {@link #value()} returns the record's own array: do not modify it)
     */
    record Bytes(byte[] value) implements MessageField {
        /** Copies and checks the bound. */
        public Bytes {
            value = value.clone();
            if (value.length > MessageFields.MAX_VALUE_BYTES) {
                throw new IllegalArgumentException("bytes field of " + value.length + " bytes > MAX_VALUE_BYTES="
                        + MessageFields.MAX_VALUE_BYTES);
            }
        }

        @Override
        public Type type() {
            return Type.BYTES;
        }

        @Override
        public int encodedLength() {
            return value.length;
        }

        @Override
        public String text() {
            return java.util.Base64.getEncoder().encodeToString(value);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && Arrays.equals(value, b.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "Bytes[" + value.length + " bytes]";
        }
    }

    /**
     * One range of non-negative integers, both ends included.
     *
     * @param first the smallest, &gt;= 0
     * @param last  the largest, &gt;= first
     */
    record Range(long first, long last) {
        /** Checks the ends. */
        public Range {
            if (first < 0 || last < first) {
                throw new IllegalArgumentException("range " + first + "-" + last + " must have 0 <= first <= last");
            }
        }

        @Override
        public String toString() {
            return first + "-" + last;
        }
    }

    /**
     * Ranges in canonical form: ascending, disjoint and not adjacent (1-3 5-7, never 1-3 4-7), so
     * that one set of numbers has one encoding. {@link #of} normalises any list.
     *
     * @param ranges at most {@link MessageFields#MAX_VALUE_BYTES}/16 ranges
     */
    record Ranges(List<Range> ranges) implements MessageField {
        /** Largest number of ranges one field holds. */
        public static final int MAX_RANGES = MessageFields.MAX_VALUE_BYTES / 16;

        /** Copies and checks the canonical form. */
        public Ranges {
            ranges = List.copyOf(ranges);
            if (ranges.size() > MAX_RANGES) {
                throw new IllegalArgumentException(ranges.size() + " ranges > MAX_RANGES=" + MAX_RANGES);
            }
            for (int i = 1; i < ranges.size(); i++) {
                Range prev = ranges.get(i - 1);
                Range r = ranges.get(i);
                if (r.first() <= prev.last() || r.first() - prev.last() < 2) {
                    throw new IllegalArgumentException("ranges must be ascending, disjoint and not adjacent: "
                            + r + " after " + prev);
                }
            }
        }

        /** Sorts and merges overlapping or adjacent ranges. */
        public static Ranges of(List<Range> any) {
            List<Range> sorted = new ArrayList<>(any);
            sorted.sort(Comparator.comparingLong(Range::first));
            List<Range> out = new ArrayList<>(sorted.size());
            for (Range r : sorted) {
                if (!out.isEmpty()) {
                    Range last = out.get(out.size() - 1);
                    if (r.first() <= last.last() || r.first() - last.last() == 1) {
                        out.set(out.size() - 1, new Range(last.first(), Math.max(last.last(), r.last())));
                        continue;
                    }
                }
                out.add(r);
            }
            return new Ranges(out);
        }

        /**
         * Parses the text form {@code "1-5 9-9 12-20"} (white-space separated {@code first-last},
         * or a single number for a one-number range), normalising as {@link #of} does.
         *
         * @throws IllegalArgumentException naming the malformed token
         */
        public static Ranges parse(String text) {
            String t = text.strip();
            if (t.isEmpty()) {
                return new Ranges(List.of());
            }
            String[] tokens = t.split("\\s+");
            if (tokens.length > MAX_RANGES) {
                throw new IllegalArgumentException(tokens.length + " ranges > MAX_RANGES=" + MAX_RANGES);
            }
            List<Range> out = new ArrayList<>(tokens.length);
            for (String token : tokens) {
                int dash = token.indexOf('-', 1);
                try {
                    long first = Long.parseLong(dash < 0 ? token : token.substring(0, dash));
                    long last = dash < 0 ? first : Long.parseLong(token.substring(dash + 1));
                    out.add(new Range(first, last));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("range '" + token + "' is not first-last (non-negative integers)");
                }
            }
            return of(out);
        }

        @Override
        public Type type() {
            return Type.RANGES;
        }

        @Override
        public int encodedLength() {
            return 16 * ranges.size();
        }

        /** The text form, {@code "1-5 9-9"}; empty for no ranges. */
        @Override
        public String text() {
            StringBuilder sb = new StringBuilder();
            for (Range r : ranges) {
                sb.append(sb.length() == 0 ? "" : " ").append(r);
            }
            return sb.toString();
        }
    }
}
