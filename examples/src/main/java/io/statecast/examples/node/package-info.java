/**
 * {@code statecast node}: one overlay node as a process, observed and driven through a small line
 * protocol on standard output and standard input (see {@code docs/node.md}). Used by the
 * integration tests that run overlays of real processes.
 */
package io.statecast.examples.node;
