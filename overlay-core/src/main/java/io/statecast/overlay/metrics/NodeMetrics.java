package io.statecast.overlay.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The meter registry of one socket and where it is exported: a composite registry whose meters
 * go to JMX always (domain {@value #JMX_DOMAIN}) and, when an HTTP address is given, to a
 * Prometheus registry served by a {@link MetricsEndpoint}. Every meter carries the common tags
 * {@code overlay} (the overlay ID) and {@code node} (the node's identity in this JVM), so several
 * sockets in one JVM register distinct MBeans.
 *
 * <p>Meters only read counters the components keep anyway (function counters and gauges), so
 * binding costs nothing on the message path; values are read when JMX or {@code /metrics} asks.
 * Closing unregisters the MBeans and stops the endpoint.
 */
public final class NodeMetrics implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeMetrics.class);
    /** The JMX domain of every MBean. */
    public static final String JMX_DOMAIN = "statecast";
    /** The prefix of every meter name. */
    public static final String PREFIX = "statecast.";

    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
    private final JmxMeterRegistry jmx;
    private final PrometheusMeterRegistry prometheus;
    private final MetricsEndpoint endpoint;

    /**
     * Creates the registries and, if {@code http} is not {@code null}, binds the endpoint there.
     *
     * @param overlayId the overlay ID (tag {@code overlay})
     * @param node      this node's identity in the JVM (tag {@code node}), e.g. its substrate address
     * @param http      where to serve {@code /metrics}, or {@code null} for JMX only
     * @throws IOException if the endpoint cannot bind
     */
    public NodeMetrics(String overlayId, String node, InetSocketAddress http) throws IOException {
        this(overlayId, node, http, true);
    }

    private NodeMetrics(String overlayId, String node, InetSocketAddress http, boolean export) throws IOException {
        if (!export) {
            this.jmx = null;
            this.prometheus = null;
            this.endpoint = null;
            return;
        }
        registry.config().commonTags(Tags.of("overlay", Objects.requireNonNull(overlayId, "overlayId"),
                "node", Objects.requireNonNull(node, "node")));
        this.jmx = new JmxMeterRegistry(new JmxConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public String domain() {
                return JMX_DOMAIN;
            }
        }, Clock.SYSTEM);
        registry.add(jmx);
        if (http == null) {
            this.prometheus = null;
            this.endpoint = null;
            return;
        }
        this.prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.add(prometheus);
        try {
            this.endpoint = MetricsEndpoint.start(http, prometheus::scrape);
        } catch (IOException | RuntimeException e) {
            closeRegistries();
            throw e;
        }
    }

    /**
     * Exports nothing: its registry has no backing registry, so meters bound to it are no-ops and
     * nothing is bound by the socket (simulations of thousands of sockets in one JVM).
     */
    public static NodeMetrics none() {
        try {
            return new NodeMetrics("", "", null, false);
        } catch (IOException e) {
            throw new AssertionError("nothing is bound", e);
        }
    }

    /** Whether meters are exported (false for {@link #none()}). */
    public boolean exporting() {
        return jmx != null;
    }

    /** The registry to bind meters to (the composite). */
    public MeterRegistry registry() {
        return registry;
    }

    /** Where {@code /metrics} is served (port resolved), or {@code null} when not configured. */
    public InetSocketAddress httpAddress() {
        return endpoint == null ? null : endpoint.address();
    }

    /**
     * The current Prometheus text (what {@code GET /metrics} returns), or {@code null} when no
     * endpoint is configured.
     */
    public String scrape() {
        return prometheus == null ? null : prometheus.scrape();
    }

    /** Stops the endpoint, unregisters the MBeans. Idempotent. */
    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
        closeRegistries();
    }

    private void closeRegistries() {
        try {
            registry.close();
            if (jmx != null) {
                jmx.close();
            }
            if (prometheus != null) {
                prometheus.close();
            }
        } catch (RuntimeException e) {
            LOG.warn("closing the meter registries failed: {}", e.toString());
        }
    }
}
