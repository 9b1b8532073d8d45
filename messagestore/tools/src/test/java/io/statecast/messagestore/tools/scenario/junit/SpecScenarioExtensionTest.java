package io.statecast.messagestore.tools.scenario.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.support.ScenarioTemplateFixture;
import io.statecast.messagestore.tools.scenario.ScenarioResult;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.opentest4j.AssertionFailedError;

/** {@link SpecScenarioTest}: one invocation per scenario file, failing with the report, and only then. */
class SpecScenarioExtensionTest {

    /** How an author uses it: one test per file of the directory, the result for further checks. */
    @SpecScenarioTest(spec = "../runtime/src/test/resources/specs/ack-service.scxml", scenarios = "../runtime/src/test/resources/scenarios/ack-service")
    void ackService(ScenarioResult result) {
        assertTrue(result.passed());
        assertTrue(result.steps().size() > 1, "every ack-service scenario has several steps");
    }

    @Test
    void shouldRunOneInvocationPerFileAndFailWithTheReport() {
        Map<String, TestExecutionResult> results = run(ScenarioTemplateFixture.class);

        assertEquals(TestExecutionResult.Status.SUCCESSFUL, results.get("receiver-acknowledges.json").getStatus());
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, results.get("sender-retransmits.yaml").getStatus());

        String report = failure(results, "ack-service/wrong-receipt.yaml");
        assertTrue(report.contains("- sendControlMessage(type=2, destination=1)   (expected, line 6)"), report);
        assertTrue(report.contains("+ sendControlMessage(type=2, id=1, mode=unicast, destination=2, at=0)"), report);
        String noSpec = failure(results, "no-such-spec");
        assertTrue(noSpec.contains("but no spec ../runtime/src/test/resources/specs/no-such-spec.scxml"), noSpec);

        Throwable both = results.get("misconfigured(ScenarioResult)").getThrowable().orElseThrow();
        assertInstanceOf(ExtensionConfigurationException.class, both);
        assertEquals("@SpecScenarioTest on ScenarioTemplateFixture.misconfigured: give exactly one of spec and specDirectory",
                both.getMessage());
        Throwable none = results.get("noScenarioFiles()").getThrowable().orElseThrow();
        assertTrue(none.getMessage().endsWith("no scenario files (*.yaml, *.yml, *.json) in ../runtime/src/test/resources/specs"),
                none.getMessage());
        assertEquals(8, results.size(), "every invocation and method reported: " + results.keySet());
    }

    private static String failure(Map<String, TestExecutionResult> results, String name) {
        TestExecutionResult r = results.get(name);
        assertEquals(TestExecutionResult.Status.FAILED, r.getStatus(), name);
        return assertInstanceOf(AssertionFailedError.class, r.getThrowable().orElseThrow()).getMessage();
    }

    /** Runs {@code fixture} through a launcher: the result of every test and method, by display name. */
    private static Map<String, TestExecutionResult> run(Class<?> fixture) {
        Map<String, TestExecutionResult> results = new TreeMap<>();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request()
                        .selectors(DiscoverySelectors.selectClass(fixture))
                        .configurationParameter(ScenarioTemplateFixture.ENABLE, "true")
                        .build(),
                new TestExecutionListener() {
                    @Override
                    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                        if (id.getSource().isPresent() && !(id.getSource().get() instanceof ClassSource)) {
                            results.put(id.getDisplayName(), result);
                        }
                    }
                });
        return results;
    }
}
