package io.statecast.messagestore.event;

/**
 * An XQuery or XPath expression was refused: it does not compile, or it uses something the
 * sandbox forbids. The position is inside the expression text (1-based; 0 when unknown).
 */
public final class QueryException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    /**
     * @param message what is wrong, naming the construct
     * @param line    line inside the expression, 1-based, or 0
     * @param column  column inside the expression, 1-based, or 0
     */
    public QueryException(String message, int line, int column) {
        super(message);
        this.line = line;
        this.column = column;
    }

    /** Line inside the expression text, 1-based, or 0 when unknown. */
    public int line() {
        return line;
    }

    /** Column inside the expression text, 1-based, or 0 when unknown. */
    public int column() {
        return column;
    }
}
