/**
 * Exporting a node's counters: {@link io.statecast.overlay.metrics.NodeMetrics} owns a socket's
 * Micrometer registry (JMX always, Prometheus text when configured),
 * {@link io.statecast.overlay.metrics.MetricsEndpoint} serves {@code GET /metrics}, and
 * {@link io.statecast.overlay.metrics.PrometheusText} reads that text back (the {@code probe}
 * command, tests). Meter names and tags are listed in {@code docs/metrics.md}.
 */
package io.statecast.overlay.metrics;
