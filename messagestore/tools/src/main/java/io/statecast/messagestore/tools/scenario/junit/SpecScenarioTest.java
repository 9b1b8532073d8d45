package io.statecast.messagestore.tools.scenario.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Makes a method a test template run once per scenario file: each invocation runs one scenario
 * against the spec and fails with the {@code spec test} report unless every step passed; then the
 * method body runs, and may take the {@link io.statecast.messagestore.tools.scenario.ScenarioResult}
 * as a parameter for further checks.
 *
 * <pre>{@code
 * class MyServiceTest {
 *     @SpecScenarioTest(spec = "src/main/resources/services/my-service.scxml",
 *                       scenarios = "src/test/resources/scenarios/my-service")
 *     void scenario(ScenarioResult result) {
 *         // optional: more checks on result.calls("forwardMessage") ...
 *     }
 * }
 * }</pre>
 *
 * <p>Give exactly one of {@link #spec()} and {@link #specDirectory()}. Paths are file system
 * paths, relative ones to the working directory (a Maven module's directory under Surefire).
 * Usable as a meta-annotation. Scenario files that cannot be listed, or none at all, are a
 * configuration error of the test method; a spec that does not load fails each of its
 * invocations.
 *
 * @see SpecScenarioExtension
 * @see SpecScenarios the same from a {@code @TestFactory}
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(SpecScenarioExtension.class)
public @interface SpecScenarioTest {

    /** The spec every scenario runs against. */
    String spec() default "";

    /**
     * A directory of specs instead of {@link #spec()}: each directory {@code NAME} directly under
     * a {@link #scenarios()} entry holds the scenarios of {@code specDirectory/NAME.scxml}, and
     * the invocations are named {@code NAME/FILE}.
     */
    String specDirectory() default "";

    /**
     * Scenario files, or directories whose {@code *.yaml}, {@code *.yml} and {@code *.json} files
     * are taken (sorted); with {@link #specDirectory()}, directories of such directories.
     */
    String[] scenarios();
}
