package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.spec.Problem.Severity;
import java.util.Comparator;
import java.util.Objects;

/**
 * One thing lint found in a spec.
 *
 * @param rule     the rule that found it
 * @param severity error or warning (the rule's, or the loader's for {@link Rule#INVALID} and
 *                 {@link Rule#SPEC_WARNING})
 * @param file     the spec as named on the command line
 * @param line     1-based line, 0 when the finding has no position
 * @param column   1-based column, 0 when unknown
 * @param message  one line saying what is wrong, naming the states, events or actions involved
 */
public record Finding(Rule rule, Severity severity, String file, int line, int column, String message) {

    /** Orders by file, position, then errors first, then rule and message. */
    public static final Comparator<Finding> ORDER = Comparator.comparing(Finding::file)
            .thenComparingInt(Finding::line)
            .thenComparingInt(Finding::column)
            .thenComparing(Finding::severity)
            .thenComparing(Finding::rule)
            .thenComparing(Finding::message);

    /** Requires every reference; clamps positions; keeps the message on one line. */
    public Finding {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
        line = Math.max(0, line);
        column = line == 0 ? 0 : Math.max(0, column);
        message = message.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    /** A finding with the rule's own severity. */
    public static Finding of(Rule rule, String file, int line, int column, String message) {
        return new Finding(rule, rule.severity(), file, line, column, message);
    }

    /** Whether it is an error. */
    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** {@code file:line:column: severity: message [rule]}; unknown parts of the position are left out. */
    public String format() {
        StringBuilder sb = new StringBuilder(file);
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        return sb.append(": ").append(severity.label()).append(": ").append(message).append(" [").append(rule.id())
                .append(']').toString();
    }

    @Override
    public String toString() {
        return format();
    }
}
