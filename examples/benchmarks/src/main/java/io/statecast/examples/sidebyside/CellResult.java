package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What one cell measured (one system, one shape, one loss rate), from its processes' report
 * summaries (ttcp's or {@link JGroupsPeer}'s, which share the field names).
 *
 * @param shape              {@code unicast} or {@code multicast}
 * @param lossPercent        datagrams dropped, per cent
 * @param system             {@code jgroups} or the Statecast service's name
 * @param messagesPerSecond  the slowest receiver's rate: messages received over the time from the
 *                           first send to its last arrival
 * @param delayMsP50         the largest receiver median one-way delay
 * @param delayMsP99         the largest receiver 99th percentile
 * @param cpuMicrosPerMessage the sum over the cell's processes of each one's CPU time per message
 *                           it sent or received (NaN if one did not report it)
 * @param delivered          messages received, summed over receivers
 * @param expected           messages sent times receivers
 * @param note               empty, or what went wrong (a process without a report, an outcome)
 */
public record CellResult(String shape, int lossPercent, String system, double messagesPerSecond, double delayMsP50,
                         double delayMsP99, double cpuMicrosPerMessage, long delivered, long expected, String note) {

    /** The system every other is compared with. */
    public static final String REFERENCE = "jgroups";

    /**
     * Folds the summaries of one cell.
     *
     * @param sender    the sender's summary, or null if it wrote none
     * @param receivers each receiver's summary (null where one wrote none)
     * @param count     messages sent to each receiver
     */
    public static CellResult of(String shape, int lossPercent, String system, JsonNode sender, List<JsonNode> receivers,
                                int count, String note) {
        double rate = Double.POSITIVE_INFINITY;
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        double cpu = number(sender, "cpuMicrosPerMessage");
        long delivered = 0;
        int missingReports = sender == null ? 1 : 0;
        for (JsonNode r : receivers) {
            if (r == null) {
                missingReports++;
                rate = Double.NaN;
                cpu = Double.NaN;
                continue;
            }
            delivered += r.path("received").asLong(0);
            rate = Math.min(rate, number(r, "messagesPerSecond"));
            p50 = max(p50, number(r, "delayMsP50"));
            p99 = max(p99, number(r, "delayMsP99"));
            cpu += number(r, "cpuMicrosPerMessage");
        }
        String n = note;
        if (missingReports > 0) {
            n = join(n, missingReports + " process(es) wrote no report");
        }
        return new CellResult(shape, lossPercent, system, receivers.isEmpty() || Double.isInfinite(rate) ? Double.NaN : rate,
                p50, p99, cpu, delivered, (long) count * receivers.size(), n);
    }

    /** Whether every receiver got every message. */
    public boolean complete() {
        return delivered == expected;
    }

    private static double number(JsonNode summary, String field) {
        if (summary == null) {
            return Double.NaN;
        }
        JsonNode v = summary.get(field);
        return v != null && v.isNumber() ? v.asDouble() : Double.NaN;
    }

    /** The larger of two, NaN only if both are. */
    private static double max(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : a + "; " + b;
    }
}
