package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.spec.Problem.Severity;
import io.statecast.messagestore.tools.SpecFinding;
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
public record Finding(Rule rule, Severity severity, String file, int line, int column, String message)
        implements SpecFinding {

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
        column = SpecFinding.column(line, column);
        message = SpecFinding.oneLine(message);
    }

    /** A finding with the rule's own severity. */
    public static Finding of(Rule rule, String file, int line, int column, String message) {
        return new Finding(rule, rule.severity(), file, line, column, message);
    }

    @Override
    public String ruleId() {
        return rule.id();
    }

    /** {@code file:line:column: severity: message [rule]}; unknown parts of the position are left out. */
    public String format() {
        return headline();
    }

    @Override
    public String toString() {
        return format();
    }
}
