package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.tools.lint.LintReport;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What {@code spec check} found in one spec, and how much it explored.
 *
 * <p>Exit status: {@value #CLEAN} without errors (warnings too count when asked), {@value #ERRORS}
 * with errors or when the spec does not load (it is not checked then).
 *
 * @param file     the spec as named on the command line
 * @param options  the bounds used
 * @param findings every finding, errors first
 * @param stats    the size of the exploration; {@code null} when the spec does not load
 */
public record CheckReport(String file, CheckOptions options, List<CheckFinding> findings, Stats stats) {

    /** Exit status: nothing wrong. */
    public static final int CLEAN = 0;
    /** Exit status: errors (or warnings, with {@code --warnings-as-errors}). */
    public static final int ERRORS = 1;

    /**
     * How much was explored.
     *
     * @param states      abstract states found (ended instances count as one)
     * @param transitions inputs fed (steps run, the start excluded)
     * @param expanded    states whose inputs were all explored
     * @param atBound     states left unexpanded at the depth bound
     * @param inputs      distinct message inputs (the alphabet; timer expiries come on top)
     * @param cut         why the search stopped early: {@code none}, {@code states} or {@code time}
     * @param undecided   reached states that reach no end within the explored part but may beyond it
     * @param millis      wall-clock time of the exploration and analyses
     * @param cpuMillis   CPU time of the checking thread for the same (what the machine's load does not inflate)
     */
    public record Stats(int states, long transitions, int expanded, int atBound, int inputs, String cut,
            int undecided, long millis, long cpuMillis) {

        /** Whether every reachable abstract state was expanded. */
        public boolean complete() {
            return atBound == 0 && "none".equals(cut);
        }

        /** Explored states per second of CPU time. */
        public double statesPerSecond() {
            return states * 1000.0 / Math.max(1, cpuMillis);
        }
    }

    /** Copies and sorts the findings. */
    public CheckReport {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        findings = findings.stream().sorted(CheckFinding.ORDER).toList();
    }

    /** How many findings are errors. */
    public long errors() {
        return findings.stream().filter(CheckFinding::isError).count();
    }

    /** How many findings are warnings. */
    public long warnings() {
        return findings.size() - errors();
    }

    /** The exit status; {@code warningsAsErrors} makes warnings fail too. */
    public int exitStatus(boolean warningsAsErrors) {
        if (stats == null) {
            return ERRORS; // not checked: the spec does not load, which fails the check like an error
        }
        return errors() > 0 || (warningsAsErrors && !findings.isEmpty()) ? ERRORS : CLEAN;
    }

    /** One line: what was explored and how many errors and warnings. */
    public String summary() {
        long e = errors();
        long w = warnings();
        String counts = e + " error" + (e == 1 ? "" : "s") + ", " + w + " warning" + (w == 1 ? "" : "s");
        if (stats == null) {
            return file + ": not checked: " + counts;
        }
        StringBuilder sb = new StringBuilder(file).append(": depth ").append(options.depth()).append(", ")
                .append(options.peers()).append(" peer").append(options.peers() == 1 ? "" : "s").append(": ")
                .append(stats.states()).append(" states, ").append(stats.transitions()).append(" transitions (")
                .append(stats.inputs()).append(" message inputs), ");
        if (stats.complete()) {
            sb.append("state space exhausted");
        } else if (!"none".equals(stats.cut())) {
            sb.append("stopped early (").append(stats.cut()).append(" limit)");
        } else {
            sb.append(stats.atBound()).append(" states at the depth bound");
        }
        if (stats.undecided() > 0) {
            sb.append(", ").append(stats.undecided()).append(" states whose termination is undecided within the bound");
        }
        sb.append(String.format(Locale.ROOT, ", %.2f s (%.2f s CPU, %.0f states/s): ", stats.millis() / 1000.0,
                stats.cpuMillis() / 1000.0, stats.statesPerSecond()));
        return sb.append(counts).toString();
    }

    /** The findings, each with its trace, then the summary line. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        for (CheckFinding f : findings) {
            sb.append(f.format());
        }
        return sb.append(summary()).append('\n').toString();
    }

    /** The report as one JSON object. */
    public String toJson(boolean warningsAsErrors) {
        StringBuilder sb = new StringBuilder("{\"file\":").append(LintReport.quote(file))
                .append(",\"depth\":").append(options.depth())
                .append(",\"peers\":").append(options.peers())
                .append(",\"historyCap\":").append(options.historyCap())
                .append(",\"findings\":[");
        for (int i = 0; i < findings.size(); i++) {
            sb.append(i == 0 ? "\n  " : ",\n  ").append(findings.get(i).toJson());
        }
        sb.append(findings.isEmpty() ? "]" : "\n]");
        if (stats != null) {
            sb.append(",\n\"stats\":{\"states\":").append(stats.states())
                    .append(",\"transitions\":").append(stats.transitions())
                    .append(",\"expanded\":").append(stats.expanded())
                    .append(",\"atBound\":").append(stats.atBound())
                    .append(",\"inputs\":").append(stats.inputs())
                    .append(",\"cut\":").append(LintReport.quote(stats.cut()))
                    .append(",\"complete\":").append(stats.complete())
                    .append(",\"undecided\":").append(stats.undecided())
                    .append(",\"millis\":").append(stats.millis())
                    .append(",\"cpuMillis\":").append(stats.cpuMillis()).append('}');
        }
        sb.append(",\n\"summary\":{\"errors\":").append(errors()).append(",\"warnings\":").append(warnings())
                .append(",\"exitStatus\":").append(exitStatus(warningsAsErrors)).append("}}\n");
        return sb.toString();
    }
}
