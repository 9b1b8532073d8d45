package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.OverlayMessage;
import java.util.List;
import java.util.Objects;

/**
 * The value an {@code action:set xpath="…"} selected from the history, in the form the action
 * needs: the message behind a {@code <Message>} element, the bytes behind a {@code <Payload>}, or
 * the string value of anything else. An empty result is {@code null}, not a PathResult.
 *
 * <p>A result of several items: several {@code <Message>} elements are {@link Messages} (in the
 * order the expression returned them; {@code toApplication} and {@code forwardMessage} run once per
 * message, every other use takes the first); several {@code <Payload>} elements are one
 * {@link Bytes}, their concatenation in that order; several other items are {@link Texts}
 * (a {@code Message/DestinationAddress} sends one message per item, every other use takes the
 * first); a mix of kinds is its first item.
 */
public sealed interface PathResult {

    /** A {@code <Message>} element of the history: the message it was made from. */
    record Message(OverlayMessage message) implements PathResult {
        /** Requires the message. */
        public Message {
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * Two or more {@code <Message>} elements, in the order the expression returned them (a path
     * expression returns document order, a {@code for} expression its own order).
     */
    record Messages(List<OverlayMessage> messages) implements PathResult {
        /** Copies the list; requires at least two messages. */
        public Messages {
            messages = List.copyOf(messages);
            if (messages.size() < 2) {
                throw new IllegalArgumentException("Messages holds two or more messages, got " + messages.size());
            }
        }
    }

    /** A {@code <Payload>} element: the payload's bytes (not its base64 text). */
    record Bytes(byte[] bytes) implements PathResult {
        /** Requires the bytes. */
        public Bytes {
            Objects.requireNonNull(bytes, "bytes");
        }
    }

    /**
     * An address element ({@code SourceAddress}, {@code PreviousHopAddress}, …) answered by a
     * compiled expression ({@link CompiledExpression}): the address itself, so it need not be written
     * as text and parsed back.
     */
    record Address(LogicalAddress address) implements PathResult {
        /** Requires the address. */
        public Address {
            Objects.requireNonNull(address, "address");
        }
    }

    /**
     * Two or more items that are neither messages nor payloads (addresses, numbers, text), as
     * their string values in the order the expression returned them.
     */
    record Texts(List<String> texts) implements PathResult {
        /** Copies the list; requires at least two values. */
        public Texts {
            texts = List.copyOf(texts);
            if (texts.size() < 2) {
                throw new IllegalArgumentException("Texts holds two or more values, got " + texts.size());
            }
        }

        /** The first value: what a use that takes one value reads. */
        public String first() {
            return texts.get(0);
        }
    }

    /** Any other item: its string value. */
    record Text(String text) implements PathResult {
        /** Requires the text. */
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }
}
