package io.statecast.it.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Markdown results: the sustainable rates beside the blueprint's (chapter 6), every run, and
 * the loss run.
 */
final class ResultsReport {

    /** A {@code tc} rate in bits per second with a k, m or g prefix. */
    private static final Pattern TC_RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)(k|m|g)bit");

    private ResultsReport() {
    }

    /**
     * The blueprint's sustainable rates in Mbit/s (10,000 messages of 1,024 bytes, Emulab
     * 100 Mbit/s links) by service and hops 1/2/5: {SCXML, hard-coded Java}.
     * h2h-ack: sections 6.3.5, 6.4.1.3, 6.4.2; e2e-ack: 6.5.4, 6.6.1, 6.6.2.
     */
    static String blueprint(String service, int hops) {
        int i = switch (hops) {
            case 1 -> 0;
            case 2 -> 1;
            case 5 -> 2;
            default -> -1;
        };
        if (i < 0) {
            return "—";
        }
        String[][] h2h = {{"1.0", "4.0"}, {"0.7", "1.9"}, {"0.7", "1.9"}};
        String[][] e2e = {{"1.0", "4.0"}, {"0.7", "0.9"}, {"0.7", "0.8"}};
        String[][] t = service.startsWith("e2e") ? e2e : h2h;
        return t[i][0] + " / " + t[i][1];
    }

    /**
     * The results as Markdown.
     *
     * @param linkMbps the links' rate in Mbit/s (NaN if unknown), for the payload ceiling it implies
     */
    static String markdown(List<SustainableSearch.Outcome> searches, List<RunResult> lossRuns, String header, double linkMbps) {
        StringBuilder md = new StringBuilder();
        md.append(header).append("\n\n");
        md.append("### Sustainable rate\n\n");
        md.append("| service | hops | sustainable (Mbit/s of payload) | first link there (Mbit/s on the wire) | "
                + "lowest unsustainable (Mbit/s of payload) | blueprint h2h-ack SCXML / Java | blueprint e2e-ack SCXML / Java |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        for (SustainableSearch.Outcome o : searches) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s |%n", o.service(), o.hops(),
                    o.sustainableMbps() == null ? "none found" : fmt(o.sustainableMbps()), fmt(linkLoadAtSustainable(o)),
                    o.lowestUnsustainableMbps() == null ? "not reached" : fmt(o.lowestUnsustainableMbps()),
                    blueprint("h2h", o.hops()), blueprint("e2e", o.hops())));
        }
        ceiling(md, searches, linkMbps);
        md.append("\n### Every run\n\n");
        md.append("| service | hops | rate (Mbit/s) | sent (msgs/s) | first link (B/msg, Mbit/s) | received, worst node (Mbit/s) | "
                + "delay p50 / p99 / max, worst node (ms) | delay slope, worst (ms/s) | missing | CPU per message, summed (µs) | "
                + "processor canary, run / before (µs) | verdict |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (SustainableSearch.Outcome o : searches) {
            for (RunResult r : o.runs()) {
                row(md, r);
            }
        }
        if (!lossRuns.isEmpty()) {
            md.append("\n### Loss run\n\n");
            md.append("| service | hops | loss per link | rate (Mbit/s) | per node: received / missing |\n");
            md.append("|---|---|---|---|---|\n");
            for (RunResult r : lossRuns) {
                StringBuilder nodes = new StringBuilder();
                for (RunResult.Receiver rc : r.receivers()) {
                    if (nodes.length() > 0) {
                        nodes.append(", ");
                    }
                    nodes.append("n").append(rc.node()).append(' ').append(rc.received()).append(" / ")
                            .append(rc.summary() == null ? "no report" : String.valueOf(rc.missing()));
                }
                md.append(String.format(Locale.ROOT, "| %s | %d | %d %% | %s | %s |%n", r.experiment().service(),
                        r.experiment().hops(), r.experiment().lossPercent(), r.experiment().rateLabel(), nodes));
            }
        }
        return md.toString();
    }

    private static void row(StringBuilder md, RunResult r) {
        md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s, %s | %s | %s / %s / %s | %s | %d | %s | %s / %s | %s |%n",
                r.experiment().service(), r.experiment().hops(), r.experiment().rateLabel(),
                fmt0(r.achievedMessagesPerSecond()), fmt0(r.linkBytesPerMessage()), fmt(r.linkLoadMbps()), fmt(r.least("throughputMbps")), fmt(r.worst("delayMsP50")),
                fmt(r.worst("delayMsP99")), fmt(r.worst("delayMsMax")), fmt(r.worst("delaySlopeMsPerS")), r.totalMissing(),
                fmt1(r.cpuMicrosSummed()), fmt0(r.medianOverNodes("canaryMicrosInRun")),
                fmt0(r.medianOverNodes("canaryMicrosBefore")), r.verdict().replace("|", "/")));
    }

    /** The first link's load in the sustainable run of a search (NaN if none or unknown). */
    static double linkLoadAtSustainable(SustainableSearch.Outcome o) {
        if (o.sustainableMbps() == null) {
            return Double.NaN;
        }
        for (RunResult r : o.runs()) {
            if (r.sustainable() && r.experiment().rateMbps() == o.sustainableMbps()) {
                return r.linkLoadMbps();
            }
        }
        return Double.NaN;
    }

    /**
     * The payload a link can carry at all: its rate times payload over bytes on the link per
     * message (the median over the runs that measured it). Headers make that less than the link rate.
     */
    private static void ceiling(StringBuilder md, List<SustainableSearch.Outcome> searches, double linkMbps) {
        List<Double> perMessage = new ArrayList<>();
        int size = 0;
        for (SustainableSearch.Outcome o : searches) {
            for (RunResult r : o.runs()) {
                if (!Double.isNaN(r.linkBytesPerMessage())) {
                    perMessage.add(r.linkBytesPerMessage());
                    size = r.experiment().size();
                }
            }
        }
        if (perMessage.isEmpty() || Double.isNaN(linkMbps)) {
            return;
        }
        perMessage.sort(Double::compare);
        double median = perMessage.get(perMessage.size() / 2);
        md.append(String.format(Locale.ROOT, "%nOn the first link each message took %.0f bytes (median of %d runs: a %d-byte payload with "
                + "its overlay, UDP, IP and Ethernet headers, plus that link's share of control traffic), so a %s Mbit/s link carries "
                + "at most %.1f Mbit/s of payload.%n", median, perMessage.size(), size, fmt(linkMbps), linkMbps * size / median));
    }

    /**
     * The rate of a {@code tc} rate such as {@code 100mbit}, {@code 1gbit} or {@code 500kbit} in
     * Mbit/s; NaN if it is not one of those forms.
     */
    static double parseLinkMbps(String rate) {
        Matcher m = TC_RATE.matcher(rate.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Double.NaN;
        }
        double v = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "k" -> v / 1e3;
            case "g" -> v * 1e3;
            default -> v;
        };
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String fmt1(double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String fmt0(double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.0f", v);
    }
}
