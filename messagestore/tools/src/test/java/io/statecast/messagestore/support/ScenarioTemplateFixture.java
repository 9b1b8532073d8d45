package io.statecast.messagestore.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.tools.scenario.ScenarioResult;
import io.statecast.messagestore.tools.scenario.junit.SpecScenarioTest;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test methods for {@code SpecScenarioExtensionTest}, which runs them through a launcher: some
 * fail on purpose. Its name matches no test pattern and its package no test filter of the
 * scenario tools, and it runs only when the launcher sets {@link #ENABLE}.
 */
@ExtendWith(ScenarioTemplateFixture.OnlyThroughALauncher.class)
public class ScenarioTemplateFixture {

    /** The configuration parameter that enables these methods. */
    public static final String ENABLE = "statecast.scenarioTemplateFixture";

    @SpecScenarioTest(spec = "../runtime/src/test/resources/specs/ack-service.scxml", scenarios = "../runtime/src/test/resources/scenarios/ack-service")
    void passing(ScenarioResult result) {
        assertTrue(result.passed());
    }

    @SpecScenarioTest(specDirectory = "../runtime/src/test/resources/specs", scenarios = "src/test/resources/junit-extension")
    void byDirectory() {
    }

    @SpecScenarioTest(spec = "../runtime/src/test/resources/specs/ack-service.scxml", specDirectory = "../runtime/src/test/resources/specs",
            scenarios = "../runtime/src/test/resources/scenarios/ack-service")
    void misconfigured(ScenarioResult result) {
    }

    @SpecScenarioTest(spec = "../runtime/src/test/resources/specs/ack-service.scxml", scenarios = "../runtime/src/test/resources/specs")
    void noScenarioFiles() {
    }

    /** Disables the fixture unless a launcher asked for it. */
    static final class OnlyThroughALauncher implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(ENABLE).isPresent()
                    ? ConditionEvaluationResult.enabled("run by SpecScenarioExtensionTest")
                    : ConditionEvaluationResult.disabled("a fixture of SpecScenarioExtensionTest, not a test");
        }
    }
}
