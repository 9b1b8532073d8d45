package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.tools.lint.LintReport;
import java.util.List;
import java.util.Objects;

/**
 * A counterexample: the inputs from the instance's start and the states after each. The first
 * step is the start itself (input {@code start}). For a cycle ({@link #cycleStart} ≥ 0), the
 * steps from that index on repeat for ever.
 *
 * @param steps      the steps, start first
 * @param cycleStart index of the first repeating step, or −1
 */
public record Trace(List<Step> steps, int cycleStart) {

    /**
     * One step.
     *
     * @param input  the input ({@code start}, {@code ack from child1}, {@code timer 3 expires})
     * @param events the events that fired; an event no transition handled is suffixed {@code (ignored)}
     * @param calls  the primitives called
     * @param states the configuration afterwards, or {@code (ended)}
     * @param timers the pending timers afterwards
     */
    public record Step(String input, List<String> events, List<String> calls, String states, List<Integer> timers) {

        /** Copies the lists. */
        public Step {
            Objects.requireNonNull(input, "input");
            events = List.copyOf(events);
            calls = List.copyOf(calls);
            Objects.requireNonNull(states, "states");
            timers = List.copyOf(timers);
        }
    }

    /** Copies the steps. */
    public Trace {
        steps = List.copyOf(steps);
    }

    /** The inputs after the start, in order. */
    public List<String> inputs() {
        return steps.stream().skip(1).map(Step::input).toList();
    }

    /** The configurations after each step, start included. */
    public List<String> states() {
        return steps.stream().map(Step::states).toList();
    }

    /** The trace as indented lines. */
    public String format(String indent) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            sb.append(indent).append(i == cycleStart ? "cycle> " : "       ");
            sb.append(i == 0 ? "start" : i + ". " + s.input());
            if (!s.events().isEmpty()) {
                sb.append(" [").append(String.join(", ", s.events())).append(']');
            }
            sb.append(" -> ").append(s.states());
            if (!s.timers().isEmpty()) {
                sb.append(" timers ").append(s.timers());
            }
            if (!s.calls().isEmpty()) {
                sb.append("; calls ").append(String.join(", ", s.calls()));
            }
            sb.append('\n');
        }
        if (cycleStart >= 0) {
            sb.append(indent).append("       (steps ").append(cycleStart).append('-').append(steps.size() - 1)
                    .append(" repeat for ever)\n");
        }
        return sb.toString();
    }

    /** The trace as JSON. */
    public String toJson() {
        StringBuilder sb = new StringBuilder("{\"cycleStart\":").append(cycleStart).append(",\"steps\":[");
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"input\":").append(LintReport.quote(s.input()))
                    .append(",\"events\":").append(strings(s.events()))
                    .append(",\"calls\":").append(strings(s.calls()))
                    .append(",\"states\":").append(LintReport.quote(s.states()))
                    .append(",\"timers\":").append(s.timers().toString().replace(" ", "")).append('}');
        }
        return sb.append("]}").toString();
    }

    private static String strings(List<String> list) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < list.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(LintReport.quote(list.get(i)));
        }
        return sb.append(']').toString();
    }
}
