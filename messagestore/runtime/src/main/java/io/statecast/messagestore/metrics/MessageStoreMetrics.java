package io.statecast.messagestore.metrics;

import java.util.List;

/**
 * A node's MessageStore metrics at one moment: what the blueprint measured (T_msg, backlog,
 * stored instances) plus drops by cause, per node and per loaded service.
 *
 * @param node             the node's counters (every service together)
 * @param dataBacklog      data messages waiting for a shard now
 * @param controlBacklog   control messages waiting for a shard now
 * @param heldUnknown      messages of services not loaded, held now
 * @param quarantines      services quarantined since the store started
 * @param abandonedThreads shard threads the watchdog gave up on
 * @param services         per loaded service, by ServiceID
 * @param deployment       downloads, Service Requests and publishes ({@link DeploymentMetrics#NONE}
 *                         without a spec server)
 */
public record MessageStoreMetrics(CountersSnapshot node, int dataBacklog, int controlBacklog, int heldUnknown,
        long quarantines, long abandonedThreads, List<ServiceMetrics> services, DeploymentMetrics deployment) {

    /** Copies the list. */
    public MessageStoreMetrics {
        services = List.copyOf(services);
        java.util.Objects.requireNonNull(deployment, "deployment");
    }

    /** Metrics of a store without run-time deployment. */
    public MessageStoreMetrics(CountersSnapshot node, int dataBacklog, int controlBacklog, int heldUnknown,
            long quarantines, long abandonedThreads, List<ServiceMetrics> services) {
        this(node, dataBacklog, controlBacklog, heldUnknown, quarantines, abandonedThreads, services,
                DeploymentMetrics.NONE);
    }

    /** The metrics of the service with this ServiceID, or {@code null}. */
    public ServiceMetrics service(int serviceId) {
        for (ServiceMetrics s : services) {
            if (s.serviceId() == serviceId) {
                return s;
            }
        }
        return null;
    }

    /** A printable, multi-line summary. */
    public String format() {
        StringBuilder out = new StringBuilder("MessageStore: backlog data ").append(dataBacklog).append(", control ")
                .append(controlBacklog).append(", held for unknown services ").append(heldUnknown)
                .append(", quarantines ").append(quarantines).append(", abandoned shard threads ")
                .append(abandonedThreads).append('\n');
        node.format(out, "  ");
        if (!deployment.equals(DeploymentMetrics.NONE)) {
            deployment.format(out, "  ");
        }
        for (ServiceMetrics s : services) {
            s.format(out);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return format();
    }
}
