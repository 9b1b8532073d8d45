package io.statecast.messagestore.tools.scenario;

/**
 * Formats a {@link ScenarioResult} for people: one line per step ({@code ok} or {@code FAIL},
 * its number, its line in the file, its input and the virtual time after it), the differences
 * under each failing step, and a summary line. Verbose output adds every call and note.
 */
public final class ScenarioReport {

    private ScenarioReport() {
    }

    /** The report; {@code verbose} lists every step's calls and notes, not only a failing step's. */
    public static String format(ScenarioResult r, boolean verbose) {
        StringBuilder b = new StringBuilder();
        b.append(r.scenario().source()).append(": ").append(r.scenario().name()).append('\n');
        if (r.error() != null) {
            b.append("  ERROR ").append(r.error()).append('\n');
            return b.append("FAIL (did not run)\n").toString();
        }
        int failed = 0;
        for (StepResult s : r.steps()) {
            Step step = s.step();
            b.append(s.passed() ? "  ok    " : "  FAIL  ").append("step ").append(step.index() + 1)
                    .append(" (line ").append(step.line()).append(") ").append(describe(step.input()))
                    .append(" -> t=").append(s.atMillis()).append("ms");
            if (step.title() != null) {
                b.append(": ").append(step.title());
            }
            b.append('\n');
            if (!s.passed()) {
                failed++;
                for (String f : s.failures()) {
                    b.append("        ").append(f.replace("\n", "\n        ")).append('\n');
                }
            }
            if (verbose || !s.passed()) {
                for (String n : s.notes()) {
                    b.append("        note: ").append(n).append('\n');
                }
                if (verbose) {
                    for (ActualCall c : s.calls()) {
                        b.append("        call: ").append(c).append('\n');
                    }
                    b.append("        state: ").append(s.state()).append(s.terminated() ? " (ended)" : "").append('\n');
                }
            }
        }
        int total = r.scenario().steps().size();
        if (r.steps().size() < total) {
            b.append("  (stopped after ").append(r.steps().size()).append(" of ").append(total).append(" steps)\n");
        }
        if (r.passed()) {
            b.append("PASS ").append(total).append(total == 1 ? " step" : " steps").append('\n');
        } else {
            b.append("FAIL ").append(failed).append(" of ").append(total).append(total == 1 ? " step" : " steps")
                    .append(" failed\n");
        }
        return b.toString();
    }

    /** The step's input in a few words. */
    static String describe(Step.Input in) {
        if (in instanceof Step.Receive r) {
            return r.messages().size() == 1 ? "receive" : "receive " + r.messages().size() + " messages";
        }
        if (in instanceof Step.Advance a) {
            return "advance " + a.millis() + "ms";
        }
        if (in instanceof Step.Fire f) {
            return "fire " + f.name();
        }
        if (in instanceof Step.Topology) {
            return "topology change";
        }
        if (in instanceof Step.Deploy) {
            return "deploy";
        }
        return "check";
    }
}
