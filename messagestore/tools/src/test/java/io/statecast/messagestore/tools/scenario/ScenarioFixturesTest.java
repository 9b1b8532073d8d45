package io.statecast.messagestore.tools.scenario;

import io.statecast.messagestore.tools.scenario.junit.SpecScenarios;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The scenarios of the test specs ({@code scenarios/NAME/*} against {@code specs/NAME.scxml}),
 * run through the JUnit helper service authors use.
 */
class ScenarioFixturesTest {

    @TestFactory
    Stream<DynamicNode> scenarios() {
        return SpecScenarios.byDirectory(Path.of("../runtime/src/test/resources/specs"), Path.of("../runtime/src/test/resources/scenarios"));
    }
}
