package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.AttributeValues;
import io.statecast.overlay.message.MessageField;
import java.nio.charset.StandardCharsets;

/**
 * The text forms of message field values, as specs write them ({@code value="…"}, a parameter's
 * value) and as the history shows them: an integer in decimal, a string as it is, bytes as UTF-8
 * text (as a literal payload), ranges as {@code "1-5 9-12"}.
 */
public final class MessageFieldValues {

    private MessageFieldValues() {
    }

    /**
     * The value of {@code text} as a field of {@code type}.
     *
     * @throws IllegalArgumentException naming the expected form or the bound exceeded
     */
    public static MessageField parse(MessageField.Type type, String text) {
        return switch (type) {
            case INTEGER -> new MessageField.Int(AttributeValues.longValue(text, Long.MIN_VALUE, Long.MAX_VALUE,
                    "an integer field"));
            case STRING -> new MessageField.Text(text);
            case BYTES -> new MessageField.Bytes(text.getBytes(StandardCharsets.UTF_8));
            case RANGES -> MessageField.Ranges.parse(text);
        };
    }
}
