/**
 * A test harness for service authors: scripted scenarios that drive one instance of a spec on a
 * virtual clock and check the primitives it calls, the state it reaches and whether it ends.
 * {@link io.statecast.messagestore.tools.scenario.ScenarioReader} reads a YAML or JSON scenario
 * strictly against the spec, {@link io.statecast.messagestore.tools.scenario.ScenarioRunner}
 * runs it on the same {@code ServiceInstance} a node runs, and
 * {@link io.statecast.messagestore.tools.scenario.ScenarioReport} prints the outcome. The JUnit 5
 * integration is in {@code io.statecast.messagestore.tools.scenario.junit}. The format is
 * documented in {@code docs/authoring.md}.
 */
package io.statecast.messagestore.tools.scenario;
