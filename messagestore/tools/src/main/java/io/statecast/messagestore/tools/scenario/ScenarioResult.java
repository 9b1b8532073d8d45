package io.statecast.messagestore.tools.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of running a scenario: one result per step that ran, or an error that stopped it
 * before the first step (parameters the spec refuses).
 *
 * @param scenario the scenario
 * @param steps    the step results, in order
 * @param error    why the scenario could not run, or {@code null}
 */
public record ScenarioResult(Scenario scenario, List<StepResult> steps, String error) {

    /** Copies the list. */
    public ScenarioResult {
        steps = List.copyOf(steps);
    }

    /** Whether it ran and every step passed. */
    public boolean passed() {
        return error == null && steps.stream().allMatch(StepResult::passed);
    }

    /** Every call of {@code primitive} in the whole scenario, in order. */
    public List<ActualCall> calls(String primitive) {
        List<ActualCall> out = new ArrayList<>();
        for (StepResult s : steps) {
            out.addAll(s.calls(primitive));
        }
        return out;
    }
}
