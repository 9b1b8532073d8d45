/**
 * {@code statecast spec lint}: the loader's problems under rule ids, then static analyses of the
 * loaded spec (unused events, leaking states, unhandled timers, impossible history reads,
 * metaops that contradict the actions). Entry point {@link io.statecast.messagestore.tools.lint.Linter};
 * rules and their exact semantics in {@link io.statecast.messagestore.tools.lint.Rule} and
 * {@code docs/authoring.md}.
 */
package io.statecast.messagestore.tools.lint;
