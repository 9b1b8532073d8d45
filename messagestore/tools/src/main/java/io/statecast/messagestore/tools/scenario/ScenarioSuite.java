package io.statecast.messagestore.tools.scenario;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Loads a spec once (with the node's {@link SpecLoader}) and runs scenario files against it: what
 * {@code statecast spec test} and the JUnit helper share.
 */
public final class ScenarioSuite {

    private final ServiceSpec spec;
    private final ScenarioLimits limits;

    private ScenarioSuite(ServiceSpec spec, ScenarioLimits limits) {
        this.spec = spec;
        this.limits = limits;
    }

    /** Loads {@code specFile}. */
    public static ScenarioSuite load(Path specFile) throws SpecException {
        try (SpecLoader loader = new SpecLoader()) {
            return new ScenarioSuite(loader.load(specFile), ScenarioLimits.DEFAULTS);
        }
    }

    /** A suite for an already loaded spec. */
    public static ScenarioSuite of(ServiceSpec spec, ScenarioLimits limits) {
        return new ScenarioSuite(spec, limits);
    }

    /** The spec. */
    public ServiceSpec spec() {
        return spec;
    }

    /** Reads and runs one scenario file. */
    public ScenarioResult run(Path scenarioFile) throws ScenarioException {
        Scenario s = ScenarioReader.read(scenarioFile, spec, limits);
        return new ScenarioRunner(limits).run(spec, s);
    }

    /** {@code paths} with every directory replaced by its {@link #scenarioFiles}, in order. */
    public static List<Path> expand(List<Path> paths) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                out.addAll(scenarioFiles(p));
            } else {
                out.add(p);
            }
        }
        return out;
    }

    /** The scenario files ({@code *.yaml}, {@code *.yml}, {@code *.json}) directly in {@code dir}, sorted. */
    public static List<Path> scenarioFiles(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> {
                String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                return Files.isRegularFile(p) && (n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json"));
            }).sorted().forEach(out::add);
        }
        return out;
    }
}
