/**
 * JUnit 5 dynamic tests from scenario files ({@link io.statecast.messagestore.tools.scenario.junit.SpecScenarios}).
 * Needs {@code junit-jupiter-api} on the class path, an optional dependency of this library.
 */
package io.statecast.messagestore.tools.scenario.junit;
