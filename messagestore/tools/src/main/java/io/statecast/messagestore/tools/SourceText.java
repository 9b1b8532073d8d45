package io.statecast.messagestore.tools;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A spec's text split into lines, to turn the line numbers a loaded spec carries into columns.
 * This is position arithmetic, not parsing: the loader already checked the document, and
 * {@link #column} only looks for a start tag on a line the loader named.
 */
public final class SourceText {

    private final List<String> lines;

    private SourceText(List<String> lines) {
        this.lines = lines;
    }

    /** The text of a spec's bytes (UTF-8, as the loader requires; a BOM is dropped). */
    public static SourceText of(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            text = text.substring(1);
        }
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                out.add(text.substring(start, i));
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        return new SourceText(List.copyOf(out));
    }

    /** A text with no lines: every column is unknown. */
    public static SourceText empty() {
        return new SourceText(List.of());
    }

    /**
     * The 1-based column of the start tag of element {@code localName} (any prefix) on 1-based
     * {@code line}; else of the line's first {@code <}; else of its first non-blank character;
     * 0 when the line is unknown.
     */
    public int column(int line, String localName) {
        if (line <= 0 || line > lines.size()) {
            return 0;
        }
        String l = lines.get(line - 1);
        for (int i = l.indexOf('<'); i >= 0; i = l.indexOf('<', i + 1)) {
            int nameStart = i + 1;
            int end = nameStart;
            while (end < l.length() && !Character.isWhitespace(l.charAt(end)) && l.charAt(end) != '>'
                    && l.charAt(end) != '/') {
                end++;
            }
            String qname = l.substring(nameStart, end);
            String local = qname.substring(qname.indexOf(':') + 1);
            if (local.equals(localName)) {
                return i + 1;
            }
        }
        int lt = l.indexOf('<');
        if (lt >= 0) {
            return lt + 1;
        }
        for (int i = 0; i < l.length(); i++) {
            if (!Character.isWhitespace(l.charAt(i))) {
                return i + 1;
            }
        }
        return 1;
    }
}
