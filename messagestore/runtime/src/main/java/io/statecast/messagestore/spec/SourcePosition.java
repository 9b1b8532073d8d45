package io.statecast.messagestore.spec;

import org.w3c.dom.Node;

/**
 * A 1-based line and column in a spec's text. Elements of a parsed spec carry the position of
 * their start tag's {@code <} and of the first character after the start tag (where content begins).
 *
 * @param line   1-based line, 0 when unknown
 * @param column 1-based column, 0 when unknown
 */
record SourcePosition(int line, int column) {

    static final SourcePosition UNKNOWN = new SourcePosition(0, 0);
    static final String START_KEY = "statecast.start";
    static final String CONTENT_KEY = "statecast.content";

    /** Position of the element's start tag, or {@link #UNKNOWN}. */
    static SourcePosition of(Node node) {
        Object p = node == null ? null : node.getUserData(START_KEY);
        return p instanceof SourcePosition sp ? sp : UNKNOWN;
    }

    /** Position where the element's content begins, or {@link #UNKNOWN}. */
    static SourcePosition contentOf(Node node) {
        Object p = node == null ? null : node.getUserData(CONTENT_KEY);
        return p instanceof SourcePosition sp ? sp : UNKNOWN;
    }
}
