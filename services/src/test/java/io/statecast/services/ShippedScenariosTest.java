package io.statecast.services;

import io.statecast.messagestore.tools.scenario.junit.SpecScenarios;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Every scenario of every shipped service: {@code src/test/resources/scenarios/NAME/*.yaml} (and
 * {@code .yml}, {@code .json}) against {@code src/main/resources/services/NAME.scxml}. A new
 * service's scenarios need only a directory of its name.
 */
class ShippedScenariosTest {

    @TestFactory
    Stream<DynamicNode> scenarios() {
        return SpecScenarios.byDirectory(Path.of("src/main/resources/services"), Path.of("src/test/resources/scenarios"));
    }
}
