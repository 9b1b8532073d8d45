/**
 * JUnit 5 support for scenario files: the {@link io.statecast.messagestore.tools.scenario.junit.SpecScenarioTest}
 * annotation (a test template with one invocation per scenario file, backed by
 * {@link io.statecast.messagestore.tools.scenario.junit.SpecScenarioExtension}) and dynamic tests for a
 * {@code @TestFactory} ({@link io.statecast.messagestore.tools.scenario.junit.SpecScenarios}). Needs
 * {@code junit-jupiter-api} on the class path, an optional dependency of this library.
 */
package io.statecast.messagestore.tools.scenario.junit;
