package io.statecast.messagestore;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The node runtime carries none of the authoring tools' libraries: a node that depends on
 * {@code messagestore} gets no command-line parser, no graph layout or modelling framework and
 * none of the tools themselves (JUnit is here only because this is a test).
 */
class RuntimeClasspathTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "picocli.CommandLine",
        "org.eclipse.elk.core.RecursiveGraphLayoutEngine",
        "org.eclipse.emf.ecore.EObject",
        "io.statecast.messagestore.tools.lint.Linter",
        "io.statecast.messagestore.cli.SpecCommand",
    })
    void shouldNotHaveToolsOnTheRuntimeClasspath(String className) {
        assertThrows(ClassNotFoundException.class, () -> Class.forName(className, false, getClass().getClassLoader()),
                className + " is on the runtime's classpath");
    }
}
