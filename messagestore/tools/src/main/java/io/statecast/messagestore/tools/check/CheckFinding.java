package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.spec.Problem.Severity;
import io.statecast.messagestore.tools.SpecFinding;
import io.statecast.messagestore.tools.lint.LintReport;
import java.util.Comparator;
import java.util.Objects;

/**
 * One thing {@code spec check} found.
 *
 * @param rule     the rule
 * @param severity its severity
 * @param file     the spec as named on the command line
 * @param line     1-based line, 0 when unknown
 * @param column   1-based column, 0 when unknown
 * @param message  one line
 * @param trace    a shortest counterexample, or {@code null} (a spec that does not load)
 */
public record CheckFinding(CheckRule rule, Severity severity, String file, int line, int column, String message,
        Trace trace) implements SpecFinding {

    /** Errors first, then by position. */
    public static final Comparator<CheckFinding> ORDER = Comparator.comparing(CheckFinding::severity)
            .thenComparingInt(CheckFinding::line)
            .thenComparingInt(CheckFinding::column)
            .thenComparing(CheckFinding::rule)
            .thenComparing(CheckFinding::message);

    /** Requires the rule, file and message; keeps the message on one line. */
    public CheckFinding {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
        line = Math.max(0, line);
        column = SpecFinding.column(line, column);
        message = SpecFinding.oneLine(message);
    }

    /** A finding with the rule's severity. */
    static CheckFinding of(CheckRule rule, String file, int line, int column, String message, Trace trace) {
        return new CheckFinding(rule, rule.severity(), file, line, column, message, trace);
    }

    @Override
    public String ruleId() {
        return rule.id();
    }

    /** {@code file:line:column: severity: message [rule]}, then the trace indented. */
    public String format() {
        StringBuilder sb = new StringBuilder(headline()).append('\n');
        if (trace != null) {
            sb.append(trace.format("    "));
        }
        return sb.toString();
    }

    /** The finding as a JSON object. */
    public String toJson() {
        return "{\"file\":" + LintReport.quote(file) + ",\"line\":" + line + ",\"column\":" + column
                + ",\"severity\":" + LintReport.quote(severity.label()) + ",\"rule\":" + LintReport.quote(rule.id())
                + ",\"message\":" + LintReport.quote(message) + ",\"trace\":"
                + (trace == null ? "null" : trace.toJson()) + "}";
    }
}
