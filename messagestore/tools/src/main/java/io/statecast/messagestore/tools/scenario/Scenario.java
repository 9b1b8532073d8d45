package io.statecast.messagestore.tools.scenario;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scripted scenario for one instance of one spec: the node it runs on, the spec's parameter
 * overrides, and the steps (inputs and what each must produce). Read with
 * {@link ScenarioReader}; run with {@link ScenarioRunner}. The format is described in
 * {@code docs/authoring.md}.
 *
 * @param source      where it was read from (for messages)
 * @param name        what it shows, one line
 * @param node        the node's address and topology at the start
 * @param parameters  spec parameter overrides ({@code ServiceSpec.withParameters})
 * @param ignore      primitives left out of every step's {@code expect} comparison
 * @param steps       the steps, in order
 */
public record Scenario(String source, String name, NodeSetup node, Map<String, String> parameters,
        Set<String> ignore, List<Step> steps) {

    /** Copies the collections. */
    public Scenario {
        parameters = Map.copyOf(parameters);
        ignore = Set.copyOf(ignore);
        steps = List.copyOf(steps);
    }
}
