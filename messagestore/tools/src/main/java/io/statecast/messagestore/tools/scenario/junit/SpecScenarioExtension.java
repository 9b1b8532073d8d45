package io.statecast.messagestore.tools.scenario.junit;

import io.statecast.messagestore.tools.scenario.ScenarioResult;
import io.statecast.messagestore.tools.scenario.ScenarioSuite;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link SpecScenarioTest}: one invocation of the annotated method
 * per scenario file. Each invocation runs its scenario before the method body (so a body may be
 * empty) and resolves a {@link ScenarioResult} parameter to the passed result. Each spec is loaded
 * once per test method, when its first scenario runs.
 */
public final class SpecScenarioExtension implements TestTemplateInvocationContextProvider {

    /** Used by JUnit through {@link SpecScenarioTest}'s {@code @ExtendWith}. */
    public SpecScenarioExtension() {
    }

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, SpecScenarioTest.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        SpecScenarioTest a = AnnotationSupport.findAnnotation(method, SpecScenarioTest.class)
                .orElseThrow(() -> new ExtensionConfigurationException(method + " is not a @SpecScenarioTest"));
        String where = "@SpecScenarioTest on " + method.getDeclaringClass().getSimpleName() + "." + method.getName();
        if (a.spec().isBlank() == a.specDirectory().isBlank()) {
            throw new ExtensionConfigurationException(where + ": give exactly one of spec and specDirectory");
        }
        if (a.scenarios().length == 0) {
            throw new ExtensionConfigurationException(where + ": no scenarios given");
        }
        List<Path> roots = Arrays.stream(a.scenarios()).map(Path::of).toList();
        List<TestTemplateInvocationContext> out = new ArrayList<>();
        try {
            if (!a.spec().isBlank()) {
                LazySuite suite = new LazySuite(Path.of(a.spec()));
                for (Path f : ScenarioSuite.expand(roots)) {
                    out.add(new Invocation(f.getFileName().toString(), f, suite::get));
                }
            } else {
                Path specDir = Path.of(a.specDirectory());
                for (Path root : roots) {
                    for (Path dir : SpecScenarios.scenarioDirectories(root)) {
                        addDirectory(specDir, dir, out);
                    }
                }
            }
        } catch (IOException e) {
            throw new ExtensionConfigurationException(where + ": cannot list the scenarios: " + e, e);
        }
        if (out.isEmpty()) {
            throw new ExtensionConfigurationException(where + ": no scenario files (*.yaml, *.yml, *.json) in "
                    + String.join(", ", a.scenarios()));
        }
        return out.stream();
    }

    private static void addDirectory(Path specDir, Path dir, List<TestTemplateInvocationContext> out) throws IOException {
        String name = dir.getFileName().toString();
        Path spec = specDir.resolve(name + ".scxml");
        if (!Files.isRegularFile(spec)) {
            out.add(new Invocation(name, dir, () -> Assertions.fail(SpecScenarios.noSpec(dir, spec))));
            return;
        }
        LazySuite suite = new LazySuite(spec);
        for (Path f : ScenarioSuite.scenarioFiles(dir)) {
            out.add(new Invocation(name + "/" + f.getFileName(), f, suite::get));
        }
    }

    /** One scenario file: named after it, run before the method body. */
    private record Invocation(String name, Path scenario, Supplier<ScenarioSuite> suite)
            implements TestTemplateInvocationContext {

        @Override
        public String getDisplayName(int invocationIndex) {
            return name;
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(new Run(this));
        }
    }

    /** Runs the invocation's scenario (once) and hands its result to the method. */
    private static final class Run implements BeforeTestExecutionCallback, ParameterResolver {
        private final Invocation invocation;
        private ScenarioResult result;

        Run(Invocation invocation) {
            this.invocation = invocation;
        }

        private ScenarioResult result() {
            if (result == null) {
                result = SpecScenarios.check(invocation.suite().get(), invocation.scenario());
            }
            return result;
        }

        @Override
        public void beforeTestExecution(ExtensionContext context) {
            result();
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == ScenarioResult.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return result();
        }
    }
}
