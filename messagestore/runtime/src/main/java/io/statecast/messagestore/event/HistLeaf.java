package io.statecast.messagestore.event;

import java.util.Base64;
import java.util.List;
import net.sf.saxon.str.StringView;
import net.sf.saxon.str.UnicodeString;

/**
 * An element holding only text: a message attribute, a timer identifier, an address, a message
 * field. A payload (or bytes field) leaf keeps the bytes and makes their base64 text only when a
 * query reads it.
 */
final class HistLeaf extends HistElement {

    private String text;
    private final byte[] bytes;
    private List<HistNode> textChild;

    /** A leaf with text. */
    HistLeaf(HistNode parent, long seq, String name, String text, Object origin) {
        this(parent, seq, name, null, null, text, null, origin);
    }

    /** A leaf whose text is the base64 form of {@code bytes}. */
    HistLeaf(HistNode parent, long seq, String name, byte[] bytes, Object origin) {
        this(parent, seq, name, null, null, null, bytes, origin);
    }

    /**
     * A leaf with attributes (a message field's {@code name} and {@code type}) and either
     * {@code text} or, when that is null, the base64 form of {@code bytes}.
     */
    HistLeaf(HistNode parent, long seq, String name, String[] attributeNames, String[] attributeValues, String text,
            byte[] bytes, Object origin) {
        super(parent, seq, name, attributeNames, attributeValues, origin, null, null, HistoryNames.NONE);
        this.text = text;
        this.bytes = text == null ? bytes : null;
    }

    /** The raw bytes of a payload leaf, or {@code null}. */
    byte[] bytes() {
        return bytes;
    }

    String text() {
        String t = text;
        if (t == null) {
            t = Base64.getEncoder().encodeToString(bytes);
            text = t;
        }
        return t;
    }

    @Override
    List<? extends HistNode> childList() {
        List<HistNode> c = textChild;
        if (c == null) {
            // XDM has no empty text nodes: an empty value is an element without children
            c = text().isEmpty() ? List.of() : List.of(new HistText(this));
            textChild = c;
        }
        return c;
    }

    @Override
    public boolean hasChildNodes() {
        return !text().isEmpty();
    }

    @Override
    public UnicodeString getUnicodeStringValue() {
        return StringView.of(text());
    }

    @Override
    public String getStringValue() {
        return text();
    }
}
