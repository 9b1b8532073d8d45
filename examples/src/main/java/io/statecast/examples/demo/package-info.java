/**
 * {@code statecast demo}: an embedded spec server and a handful of overlay nodes on UDP loopback,
 * one multicasting with a delivery service while every node loses a share of its input; a
 * progress bar, a table per node, a JSON report and the blueprint's charts.
 */
package io.statecast.examples.demo;
