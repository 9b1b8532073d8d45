package io.statecast.overlay.message;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A bounded map of named, typed values a service message carries beside its payload: what
 * sliding windows, NAK repair and FEC need (a sequence number, a window, selective-ACK ranges).
 * Immutable; names in ascending order, which is also their wire order (so the encoding is
 * canonical). Travels in the {@link FieldsExtension}.
 *
 * <p>Every bound below is enforced here (so nothing oversized is ever built) and again by the
 * decoder, which names the bound it refuses.
 */
public final class MessageFields {

    /** Most fields in one message: enough for a window protocol's header, small enough to scan. */
    public static final int MAX_FIELDS = 16;
    /** Longest field name, in bytes (names are ASCII). */
    public static final int MAX_NAME_BYTES = 32;
    /** Longest encoded value, in bytes (a string's UTF-8 form, bytes, 16 per range). */
    public static final int MAX_VALUE_BYTES = 1024;
    /**
     * Largest encoded fields extension body, in bytes: count, names, types, lengths and values.
     * Fields are metadata; bulk data belongs in the payload.
     */
    public static final int MAX_TOTAL_BYTES = 4096;
    /** Bytes a field takes besides its name and value: name length (1), type (1), value length (2). */
    public static final int FIELD_OVERHEAD_BYTES = 4;

    /** A letter or {@code _}, then letters, digits, {@code _}: usable as a step of {@code Message/Fields/NAME}. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** No fields. */
    public static final MessageFields EMPTY = new MessageFields(new TreeMap<>());

    private final SortedMap<String, MessageField> fields;
    private final int encodedLength;

    private MessageFields(TreeMap<String, MessageField> fields) {
        if (fields.size() > MAX_FIELDS) {
            throw new IllegalArgumentException(fields.size() + " fields > MAX_FIELDS=" + MAX_FIELDS);
        }
        int size = 1;
        for (Map.Entry<String, MessageField> e : fields.entrySet()) {
            checkName(e.getKey());
            MessageField v = Objects.requireNonNull(e.getValue(), "value of field " + e.getKey());
            size += FIELD_OVERHEAD_BYTES + e.getKey().length() + v.encodedLength();
        }
        if (size > MAX_TOTAL_BYTES) {
            throw new IllegalArgumentException("fields of " + size + " bytes > MAX_TOTAL_BYTES=" + MAX_TOTAL_BYTES);
        }
        this.fields = Collections.unmodifiableSortedMap(fields);
        this.encodedLength = size;
    }

    /**
     * The fields of {@code map}.
     *
     * @throws IllegalArgumentException naming the name or bound that is violated
     */
    public static MessageFields of(Map<String, ? extends MessageField> map) {
        return map.isEmpty() ? EMPTY : new MessageFields(new TreeMap<>(map));
    }

    /**
     * Checks a field name: 1..{@value #MAX_NAME_BYTES} characters, a letter or {@code _} then
     * letters, digits or {@code _}.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static void checkName(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("field name '" + abbreviate(name) + "' has " + name.length()
                    + " characters, must have 1..MAX_NAME_BYTES=" + MAX_NAME_BYTES);
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("field name '" + name
                    + "' must be a letter or _ followed by letters, digits or _");
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }

    /** This map with {@code name} set to {@code value} (replacing any earlier value). */
    public MessageFields with(String name, MessageField value) {
        TreeMap<String, MessageField> copy = new TreeMap<>(fields);
        copy.put(name, value);
        return new MessageFields(copy);
    }

    /** The fields, by name in ascending order (unmodifiable). */
    public SortedMap<String, MessageField> asMap() {
        return fields;
    }

    /** The value of {@code name}, or {@code null}. */
    public MessageField get(String name) {
        return fields.get(name);
    }

    /** Number of fields. */
    public int size() {
        return fields.size();
    }

    /** Whether there are none. */
    public boolean isEmpty() {
        return fields.isEmpty();
    }

    /** Bytes of the encoded extension body. */
    public int encodedLength() {
        return encodedLength;
    }

    /** The UTF-8 bytes of a string value (names are ASCII, so their length is their byte count). */
    static byte[] utf8(MessageField.Text t) {
        return t.value().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MessageFields f && fields.equals(f.fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return "Fields" + fields;
    }
}
