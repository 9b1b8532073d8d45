package io.statecast.messagestore.tools.scenario;

import java.util.List;
import java.util.Set;

/**
 * What one step did and whether it met its expectations.
 *
 * @param step       the step
 * @param atMillis   the virtual time after the step, in milliseconds since the scenario started
 * @param calls      every primitive call the step made, in order (ignored primitives included)
 * @param notes      what the harness did with the inputs ("matched no event: dropped", …)
 * @param state      the instance's active states after the step (empty when there is no instance)
 * @param terminated whether the instance has ended
 * @param failures   one line per expectation not met; empty when the step passed
 */
public record StepResult(Step step, long atMillis, List<ActualCall> calls, List<String> notes, Set<String> state,
        boolean terminated, List<String> failures) {

    /** Copies the collections. */
    public StepResult {
        calls = List.copyOf(calls);
        notes = List.copyOf(notes);
        state = Set.copyOf(state);
        failures = List.copyOf(failures);
    }

    /** Whether every expectation of the step was met. */
    public boolean passed() {
        return failures.isEmpty();
    }

    /** The calls of {@code primitive}. */
    public List<ActualCall> calls(String primitive) {
        return calls.stream().filter(c -> c.primitive().equals(primitive)).toList();
    }
}
