package io.statecast.messagestore.tools.scenario.junit;

import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.tools.scenario.ScenarioSuite;
import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;

/**
 * Loads a spec on first use, so that building the test tree does no work and a spec that does
 * not load fails each of its tests (with the loader's message) rather than the discovery.
 */
final class LazySuite {
    private final Path spec;
    private ScenarioSuite suite;
    private String error;

    LazySuite(Path spec) {
        this.spec = spec;
    }

    synchronized ScenarioSuite get() {
        if (suite == null && error == null) {
            try {
                suite = ScenarioSuite.load(spec);
            } catch (SpecException e) {
                error = spec + ": the spec does not load: " + e.getMessage();
            }
        }
        if (error != null) {
            Assertions.fail(error);
        }
        return suite;
    }
}
