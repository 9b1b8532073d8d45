/**
 * Tools for service authors that work on a loaded {@link io.statecast.messagestore.spec.ServiceSpec}
 * (never on the SCXML text again): {@link io.statecast.messagestore.tools.SpecGraph}, the spec as a
 * graph of steps with their actions in execution order, and
 * {@link io.statecast.messagestore.tools.TimerAnalysis}, where each timer can be pending. Lint
 * ({@code tools.lint}) and render ({@code tools.render}) build on them; {@code docs/authoring.md}
 * describes both.
 */
package io.statecast.messagestore.tools;
