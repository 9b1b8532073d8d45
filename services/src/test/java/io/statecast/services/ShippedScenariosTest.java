package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.tools.scenario.ScenarioResult;
import io.statecast.messagestore.tools.scenario.ScenarioSuite;
import io.statecast.messagestore.tools.scenario.junit.SpecScenarioTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every scenario of every shipped service: {@code src/test/resources/scenarios/NAME/*.yaml} (and
 * {@code .yml}, {@code .json}) against {@code src/main/resources/services/NAME.scxml}, one test
 * each. A new service's scenarios need only a directory of its name; a service without one fails.
 */
class ShippedScenariosTest {

    private static final Path SERVICES = Path.of("src/main/resources/services");
    private static final Path SCENARIOS = Path.of("src/test/resources/scenarios");

    @SpecScenarioTest(specDirectory = "src/main/resources/services", scenarios = "src/test/resources/scenarios")
    void scenario(ScenarioResult result) {
        // the extension failed the test unless every step passed; a scenario that checks nothing passes always
        assertTrue(result.scenario().steps().stream().anyMatch(s -> s.calls() != null && !s.calls().isEmpty()),
                result.scenario().source() + ": no step expects a primitive call");
    }

    @Test
    void everyShippedServiceHasAScenario() throws IOException {
        List<String> without;
        try (Stream<Path> specs = Files.list(SERVICES)) {
            without = specs.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".scxml"))
                    .map(n -> n.substring(0, n.length() - ".scxml".length()))
                    .filter(n -> !hasScenarios(SCENARIOS.resolve(n)))
                    .sorted()
                    .toList();
        }
        assertEquals(List.of(), without, "shipped services without a scenario in " + SCENARIOS);
    }

    private static boolean hasScenarios(Path dir) {
        try {
            return Files.isDirectory(dir) && !ScenarioSuite.scenarioFiles(dir).isEmpty();
        } catch (IOException e) {
            return false;
        }
    }
}
