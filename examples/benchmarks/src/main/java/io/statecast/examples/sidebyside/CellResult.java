package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What one cell measured (one system, one shape, one loss rate), from its processes' report
 * summaries (ttcp's or {@link JGroupsPeer}'s, which share the field names).
 *
 * @param shape              {@code unicast}, {@code multicast} or {@code total-order}
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
 * @param duplicates         copies beyond the first that reached an application, summed over
 *                           receivers (-1 if a receiver did not report it)
 * @param outOfOrder         first copies that reached an application after one sent later, summed
 *                           over receivers (-1 if a receiver did not report it): 0 and 0 duplicates
 *                           with every message delivered is exactly once, in order
 * @param note               empty, or what went wrong (a process without a report, an outcome)
 * @param sameOrder          total-order cells: whether every member delivered one sequence (each
 *                           member's a prefix of the longest; equal, hashes included, when all are
 *                           complete); null for the other shapes
 */
public record CellResult(String shape, int lossPercent, String system, double messagesPerSecond, double delayMsP50,
                         double delayMsP99, double cpuMicrosPerMessage, long delivered, long expected, long duplicates,
                         long outOfOrder, String note, Boolean sameOrder) {

    /** A cell of a shape without an order to compare ({@code sameOrder} null). */
    public CellResult(String shape, int lossPercent, String system, double messagesPerSecond, double delayMsP50,
                      double delayMsP99, double cpuMicrosPerMessage, long delivered, long expected, long duplicates,
                      long outOfOrder, String note) {
        this(shape, lossPercent, system, messagesPerSecond, delayMsP50, delayMsP99, cpuMicrosPerMessage, delivered, expected,
                duplicates, outOfOrder, note, null);
    }

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
        return fold(shape, lossPercent, system, number(sender, "cpuMicrosPerMessage"), sender == null ? 1 : 0, receivers, count,
                note);
    }

    /**
     * Folds the summaries of a cell whose members all send and all deliver (total order): each
     * member is a receiver of {@code count} messages (every member's), and its CPU per message is
     * its share of the cell's.
     *
     * @param members   each member's summary (null where one wrote none)
     * @param count     messages every member delivers (all members' together)
     * @param sameOrder whether the members' delivery sequences are one order (null: nothing to compare)
     */
    public static CellResult ofGroup(String shape, int lossPercent, String system, List<JsonNode> members, int count, String note,
                                     Boolean sameOrder) {
        return fold(shape, lossPercent, system, 0, 0, members, count, note).withSameOrder(sameOrder);
    }

    private static CellResult fold(String shape, int lossPercent, String system, double senderCpu, int missingSender,
                                   List<JsonNode> receivers, int count, String note) {
        double rate = Double.POSITIVE_INFINITY;
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        double cpu = senderCpu;
        long delivered = 0;
        long duplicates = 0;
        long outOfOrder = 0;
        int missingReports = missingSender;
        for (JsonNode r : receivers) {
            if (r == null) {
                missingReports++;
                rate = Double.NaN;
                cpu = Double.NaN;
                continue;
            }
            delivered += r.path("received").asLong(0);
            duplicates = sumKnown(duplicates, r.get("duplicates"));
            outOfOrder = sumKnown(outOfOrder, r.get("outOfOrder"));
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
                p50, p99, cpu, delivered, (long) count * receivers.size(), duplicates, outOfOrder, n);
    }

    /** {@code sum} plus a reported count; -1 once a count is missing. */
    private static long sumKnown(long sum, JsonNode v) {
        return sum < 0 || v == null || !v.canConvertToLong() ? -1 : sum + v.asLong();
    }

    /** The same cell with {@code note} (which replaces the note it had). */
    public CellResult withNote(String note) {
        return new CellResult(shape, lossPercent, system, messagesPerSecond, delayMsP50, delayMsP99, cpuMicrosPerMessage,
                delivered, expected, duplicates, outOfOrder, note, sameOrder);
    }

    /** The same cell with the outcome of the order comparison. */
    public CellResult withSameOrder(Boolean same) {
        return new CellResult(shape, lossPercent, system, messagesPerSecond, delayMsP50, delayMsP99, cpuMicrosPerMessage,
                delivered, expected, duplicates, outOfOrder, note, same);
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
