package io.statecast.messagestore.spec;

import java.util.Locale;
import java.util.Objects;

/**
 * One thing wrong with a spec, at a position in its text.
 *
 * @param severity whether the spec is refused ({@link Severity#ERROR}) or only flagged
 * @param line     1-based line in the spec, or 0 when the problem has no position
 * @param column   1-based column, or 0
 * @param message  what is wrong, naming the element, attribute or value
 */
public record Problem(Severity severity, int line, int column, String message) implements Comparable<Problem> {

    /** How serious a problem is. */
    public enum Severity {
        /** The spec is refused. */
        ERROR,
        /** The spec loads; something is probably unintended. */
        WARNING;

        /** Lower-case name as printed by the tools. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The longest message kept; a message quoting hostile input is cut here. */
    public static final int MAX_MESSAGE_CHARS = 500;

    /**
     * Requires a severity and a message; clamps negative positions to 0. The message becomes one
     * line of at most {@value #MAX_MESSAGE_CHARS} characters: messages quote the spec, and a spec
     * is hostile input that must not forge log lines or flood them.
     */
    public Problem {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
        line = Math.max(0, line);
        column = Math.max(0, column);
        message = oneLine(message);
    }

    private static String oneLine(String message) {
        StringBuilder sb = null;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                if (sb == null) {
                    sb = new StringBuilder(message.length() + 8).append(message, 0, i);
                }
                sb.append(c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? " " : String.format("\\u%04x", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        String s = sb == null ? message : sb.toString();
        return s.length() <= MAX_MESSAGE_CHARS ? s : s.substring(0, MAX_MESSAGE_CHARS - 1) + "\u2026";
    }

    /** An error at a position. */
    public static Problem error(int line, int column, String message) {
        return new Problem(Severity.ERROR, line, column, message);
    }

    /** A warning at a position. */
    public static Problem warning(int line, int column, String message) {
        return new Problem(Severity.WARNING, line, column, message);
    }

    /** Whether this problem refuses the spec. */
    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** {@code file:line:column: severity: message} (the position is left out when unknown). */
    public String format(String file) {
        StringBuilder sb = new StringBuilder(file);
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        return sb.append(": ").append(severity.label()).append(": ").append(message).toString();
    }

    /** Orders by position, errors first at equal positions. */
    @Override
    public int compareTo(Problem o) {
        int c = Integer.compare(line, o.line);
        if (c == 0) {
            c = Integer.compare(column, o.column);
        }
        if (c == 0) {
            c = severity.compareTo(o.severity);
        }
        return c == 0 ? message.compareTo(o.message) : c;
    }

    @Override
    public String toString() {
        return format("spec");
    }
}
