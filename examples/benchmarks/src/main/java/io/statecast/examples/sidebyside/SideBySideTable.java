package io.statecast.examples.sidebyside;

import java.util.List;
import java.util.Locale;

/**
 * The side-by-side results as one Markdown table: a row per cell, and for every system but
 * JGroups its ratios to the JGroups row of the same shape and loss (above 1: more messages per
 * second, or longer delays and more CPU, than JGroups). With a total-order cell, a column says
 * whether its members delivered one order.
 */
public final class SideBySideTable {

    private SideBySideTable() {
    }

    /** The header and rows, in the order given. */
    public static String markdown(List<CellResult> cells) {
        // the column appears with a total-order cell: "NO" there is a broken promise, not a figure
        boolean orders = cells.stream().anyMatch(c -> c.sameOrder() != null || c.shape().equals("total-order"));
        StringBuilder b = new StringBuilder();
        b.append("| shape | loss | system | msgs/s | delay p50 ms | delay p99 ms | CPU µs/msg | delivered | dup | out of order | ")
                .append(orders ? "same order | " : "").append("÷ JGroups: msgs/s | p50 | p99 | CPU |\n");
        b.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|").append(orders ? "---|" : "").append("---:|---:|---:|---:|\n");
        for (CellResult c : cells) {
            CellResult ref = reference(cells, c);
            b.append("| ").append(c.shape()).append(" | ").append(c.lossPercent()).append(" % | ").append(c.system())
                    .append(" | ").append(format(c.messagesPerSecond(), 0))
                    .append(" | ").append(format(c.delayMsP50(), 2))
                    .append(" | ").append(format(c.delayMsP99(), 2))
                    .append(" | ").append(format(c.cpuMicrosPerMessage(), 1))
                    .append(" | ").append(c.delivered()).append('/').append(c.expected())
                    .append(c.note().isEmpty() ? "" : " (" + c.note().replace('|', '/') + ")")
                    .append(" | ").append(count(c.duplicates()))
                    .append(" | ").append(count(c.outOfOrder()));
            if (orders) {
                b.append(" | ").append(c.sameOrder() == null ? (c.shape().equals("total-order") ? "–" : "") : c.sameOrder() ? "yes" : "**NO**");
            }
            if (ref == null || ref == c) {
                b.append(" | | | | |\n");
            } else {
                b.append(" | ").append(ratio(c.messagesPerSecond(), ref.messagesPerSecond()))
                        .append(" | ").append(ratio(c.delayMsP50(), ref.delayMsP50()))
                        .append(" | ").append(ratio(c.delayMsP99(), ref.delayMsP99()))
                        .append(" | ").append(ratio(c.cpuMicrosPerMessage(), ref.cpuMicrosPerMessage()))
                        .append(" |\n");
            }
        }
        return b.toString();
    }

    /** The JGroups cell of the same shape and loss, or null. */
    static CellResult reference(List<CellResult> cells, CellResult c) {
        for (CellResult r : cells) {
            if (r.system().equals(CellResult.REFERENCE) && r.shape().equals(c.shape()) && r.lossPercent() == c.lossPercent()) {
                return r;
            }
        }
        return null;
    }

    static String ratio(double ours, double theirs) {
        if (Double.isNaN(ours) || Double.isNaN(theirs) || theirs == 0) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.2f", ours / theirs);
    }

    /** A count, or "–" when not known (negative). */
    static String count(long n) {
        return n < 0 ? "–" : String.format(Locale.ROOT, "%,d", n);
    }

    static String format(double v, int decimals) {
        if (Double.isNaN(v)) {
            return "–";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }
}
