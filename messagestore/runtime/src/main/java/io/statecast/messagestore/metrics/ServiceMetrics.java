package io.statecast.messagestore.metrics;

/**
 * One service's metrics at one moment.
 *
 * @param serviceId        the ServiceID
 * @param name             the service's name
 * @param sha256           SHA-256 of the loaded spec's bytes (hex)
 * @param quarantineReason why it is quarantined, or {@code null}
 * @param counters         its counters
 */
public record ServiceMetrics(int serviceId, String name, String sha256, String quarantineReason,
        CountersSnapshot counters) {

    /** Appends a printable summary. */
    void format(StringBuilder out) {
        out.append("service ").append(name).append(" (ServiceID ").append(serviceId).append(", sha256 ")
                .append(sha256, 0, Math.min(12, sha256.length())).append(")");
        if (quarantineReason != null) {
            out.append(" QUARANTINED: ").append(quarantineReason);
        }
        out.append('\n');
        counters.format(out, "  ");
    }
}
