package io.statecast.messagestore.tools.lint;

import java.util.List;

/**
 * The findings for a set of files, and what they mean for the exit status.
 *
 * <p>Exit status, as every command's (0 success, 1 the work failed, 2 bad usage or input):
 * {@value #CLEAN} when there is no error, {@value #ERRORS} when there is at least one (validation
 * errors included), or a warning and warnings count as errors.
 *
 * @param files    how many files were linted
 * @param findings every finding, sorted
 */
public record LintReport(int files, List<Finding> findings) {

    /** Exit status: no error. */
    public static final int CLEAN = 0;
    /** Exit status: at least one error (or warning, when warnings count as errors). */
    public static final int ERRORS = 1;

    /** Copies and sorts the findings. */
    public LintReport {
        findings = findings.stream().sorted(Finding.ORDER).toList();
    }

    /** How many findings are errors. */
    public long errors() {
        return findings.stream().filter(Finding::isError).count();
    }

    /** How many findings are warnings. */
    public long warnings() {
        return findings.size() - errors();
    }

    /** {@link #CLEAN} or {@link #ERRORS}; {@code warningsAsErrors} makes a warning fail too. */
    public int exitStatus(boolean warningsAsErrors) {
        return errors() > 0 || (warningsAsErrors && !findings.isEmpty()) ? ERRORS : CLEAN;
    }

    /** One line: "N files linted: E errors, W warnings". */
    public String summary() {
        long e = errors();
        long w = warnings();
        return files + " file" + (files == 1 ? "" : "s") + " linted: " + e + " error" + (e == 1 ? "" : "s") + ", " + w
                + " warning" + (w == 1 ? "" : "s");
    }

    /**
     * The report as JSON ({@code warningsAsErrors} as for {@link #exitStatus(boolean)}): {@code {"findings":[{"file","line","column","severity","rule","message"}…],
     * "summary":{"files","errors","warnings","exitStatus"}}}. Line and column are 0 when unknown.
     */
    public String toJson(boolean warningsAsErrors) {
        StringBuilder sb = new StringBuilder("{\"findings\":[");
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            sb.append(i == 0 ? "\n  " : ",\n  ");
            sb.append("{\"file\":").append(quote(f.file()))
                    .append(",\"line\":").append(f.line())
                    .append(",\"column\":").append(f.column())
                    .append(",\"severity\":").append(quote(f.severity().label()))
                    .append(",\"rule\":").append(quote(f.rule().id()))
                    .append(",\"message\":").append(quote(f.message())).append('}');
        }
        sb.append(findings.isEmpty() ? "]," : "\n],");
        sb.append("\n\"summary\":{\"files\":").append(files)
                .append(",\"errors\":").append(errors())
                .append(",\"warnings\":").append(warnings())
                .append(",\"exitStatus\":").append(exitStatus(warningsAsErrors)).append("}}\n");
        return sb.toString();
    }

    /** A JSON string literal (also used by {@code spec check}). */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
