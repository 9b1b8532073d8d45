package io.statecast.messagestore.tools.scenario.junit;

import io.statecast.messagestore.tools.scenario.ScenarioException;
import io.statecast.messagestore.tools.scenario.ScenarioReport;
import io.statecast.messagestore.tools.scenario.ScenarioResult;
import io.statecast.messagestore.tools.scenario.ScenarioSuite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * JUnit 5 support for scenario files: dynamic tests for a {@code @TestFactory}, one per scenario
 * file, each failing with the {@code spec test} report (which steps failed and the differences
 * between the expected and the actual primitive calls).
 *
 * <pre>{@code
 * class MyServiceTest {
 *     @TestFactory
 *     Stream<DynamicNode> scenarios() {
 *         return SpecScenarios.of(Path.of("src/main/resources/services/my-service.scxml"),
 *                 Path.of("src/test/resources/scenarios/my-service"));
 *     }
 *
 *     @Test
 *     void shouldSendAtTheConfiguredRate() {
 *         ScenarioResult r = SpecScenarios.assertPasses(spec, scenarioFile);
 *         // further checks on r.calls("forwardMessage") …
 *     }
 * }
 * }</pre>
 *
 * <p>{@link SpecScenarioTest} does the same with an annotation. JUnit is an optional dependency of
 * the messagestore library: a project that uses this class
 * has {@code junit-jupiter-api} on its test class path already.
 */
public final class SpecScenarios {

    private SpecScenarios() {
    }

    /**
     * One dynamic test per scenario file; {@code scenarios} are files or directories (whose
     * {@code *.yaml}, {@code *.yml} and {@code *.json} files are taken, sorted). The spec is
     * loaded once, when the first test runs; a spec that does not load fails every test.
     */
    public static Stream<DynamicNode> of(Path spec, Path... scenarios) {
        List<Path> files;
        try {
            files = ScenarioSuite.expand(List.of(scenarios));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LazySuite suite = new LazySuite(spec);
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), f.toUri(),
                () -> check(suite.get(), f)));
    }

    /**
     * Tests for a whole tree of scenarios: for each directory {@code scenarioRoot/NAME}, a
     * container {@code NAME} with a test per scenario file in it, run against
     * {@code specDir/NAME.scxml}. A directory without a spec of its name fails. Use it to run
     * every shipped service's scenarios from one test.
     */
    public static Stream<DynamicNode> byDirectory(Path specDir, Path scenarioRoot) {
        List<Path> dirs;
        try {
            dirs = scenarioDirectories(scenarioRoot);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dirs.stream().map(d -> {
            String name = d.getFileName().toString();
            Path spec = specDir.resolve(name + ".scxml");
            if (!Files.isRegularFile(spec)) {
                return DynamicTest.dynamicTest(name, () -> Assertions.fail(noSpec(d, spec)));
            }
            return DynamicContainer.dynamicContainer(name, d.toUri(), of(spec, d));
        });
    }

    /**
     * Runs one scenario and fails with the report unless every step passed.
     *
     * @return the result, for further checks
     */
    public static ScenarioResult assertPasses(Path spec, Path scenario) {
        return check(new LazySuite(spec).get(), scenario);
    }

    /** The subdirectories of {@code root}, sorted: one per spec in {@link #byDirectory}. */
    static List<Path> scenarioDirectories(Path root) throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.list(root)) {
            s.filter(Files::isDirectory).sorted().forEach(dirs::add);
        }
        return dirs;
    }

    static String noSpec(Path scenarioDir, Path spec) {
        return "scenarios in " + scenarioDir + " but no spec " + spec;
    }

    /** Runs one scenario of a loaded spec; fails with the report unless every step passed. */
    static ScenarioResult check(ScenarioSuite suite, Path scenario) {
        ScenarioResult r;
        try {
            r = suite.run(scenario);
        } catch (ScenarioException e) {
            return Assertions.fail("not a valid scenario: " + e.getMessage());
        }
        if (!r.passed()) {
            Assertions.fail("\n" + ScenarioReport.format(r, false));
        }
        return r;
    }
}
