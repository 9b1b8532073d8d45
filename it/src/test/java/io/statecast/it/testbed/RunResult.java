package io.statecast.it.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What one experiment gave: the sender's and every receiver's outcome, and whether the rate was
 * sustainable.
 *
 * @param experiment  what ran
 * @param dir         its directory (configs, JSON reports, process output)
 * @param senderExit  the sender's exit status (-1 if it was killed)
 * @param sender      the sender's summary, or {@code null} if it wrote no report
 * @param receivers   one per receiving node, nearest first
 * @param sustainable whether the rate was sustainable ({@link Criteria})
 * @param verdict     why (or why not), in words
 * @param seconds     wall time of the run
 * @param firstLink   what the first link's shaper (node 1 toward node 2) passed from the sender's
 *                    start to its end, warm-up included
 */
record RunResult(Experiment experiment, Path dir, int senderExit, JsonNode sender, List<Receiver> receivers,
        boolean sustainable, String verdict, double seconds, LinkUsage firstLink) {

    /** A result without link counters. */
    RunResult(Experiment experiment, Path dir, int senderExit, JsonNode sender, List<Receiver> receivers,
            boolean sustainable, String verdict, double seconds) {
        this(experiment, dir, senderExit, sender, receivers, sustainable, verdict, seconds, LinkUsage.UNKNOWN);
    }

    /**
     * Bytes the first link carried per data message sent (warm-up included): the payload with every
     * header, plus the control traffic on that link shared out (NaN if unknown).
     */
    double linkBytesPerMessage() {
        long messages = (long) experiment.count() + experiment.warmupMessages();
        return firstLink.known() && messages > 0 ? (double) firstLink.bytes() / messages : Double.NaN;
    }

    /** The first link's load at the sender's achieved rate, Mbit/s of bytes on the link (NaN if unknown). */
    double linkLoadMbps() {
        return achievedMessagesPerSecond() * linkBytesPerMessage() * 8 / 1e6;
    }

    /**
     * One receiver's outcome.
     *
     * @param node    node number (2..hops+1)
     * @param exit    exit status (-1 if killed)
     * @param summary its report's summary, or {@code null} if it wrote none
     */
    record Receiver(int node, int exit, JsonNode summary) {

        long received() {
            return summary == null ? 0 : summary.path("received").asLong();
        }

        long missing() {
            return summary == null ? -1 : summary.path("missing").asLong();
        }

        double get(String key) {
            JsonNode v = summary == null ? null : summary.get(key);
            return v == null || !v.isNumber() ? Double.NaN : v.asDouble();
        }
    }

    /** The sender's achieved rate in messages per second (NaN if unknown). */
    double achievedMessagesPerSecond() {
        JsonNode v = sender == null ? null : sender.get("messagesPerSecond");
        return v == null || !v.isNumber() ? Double.NaN : v.asDouble();
    }

    /** The worst of the receivers' values of {@code key} (largest). */
    double worst(String key) {
        double w = Double.NaN;
        for (Receiver r : receivers) {
            double v = r.get(key);
            if (!Double.isNaN(v) && !(v <= w)) {
                w = v;
            }
        }
        return w;
    }

    /** The smallest of the receivers' values of {@code key}. */
    double least(String key) {
        double w = Double.NaN;
        for (Receiver r : receivers) {
            double v = r.get(key);
            if (!Double.isNaN(v) && !(v >= w)) {
                w = v;
            }
        }
        return w;
    }

    /**
     * CPU microseconds per message of every node process, sender first ({@code cpuMicrosPerMessage}
     * of the ttcp reports; NaN where a report lacks it). Their sum against the cores shared says how
     * fast the chain could go on CPU alone.
     */
    double[] cpuMicrosPerMessage() {
        double[] out = new double[receivers.size() + 1];
        JsonNode v = sender == null ? null : sender.get("cpuMicrosPerMessage");
        out[0] = v == null || !v.isNumber() ? Double.NaN : v.asDouble();
        for (int i = 0; i < receivers.size(); i++) {
            out[i + 1] = receivers.get(i).get("cpuMicrosPerMessage");
        }
        return out;
    }

    /** {@link #cpuMicrosPerMessage()} summed over the nodes that report it; NaN if none does. */
    double cpuMicrosSummed() {
        return sumKnown(cpuMicrosPerMessage());
    }

    /** The sum of the values that are not NaN; NaN if every one is. */
    static double sumKnown(double[] values) {
        double sum = Double.NaN;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                sum = Double.isNaN(sum) ? v : sum + v;
            }
        }
        return sum;
    }

    /**
     * The median over the node processes of a summary figure (the sender's and every receiver's,
     * those without it left out), or NaN where none has it. For the processor's speed
     * ({@code canaryMicrosInRun}, {@code canaryMicrosBefore}): every node saw the same processor, so
     * the middle of their readings is the run's.
     */
    double medianOverNodes(String key) {
        List<Double> values = new ArrayList<>();
        JsonNode v = sender == null ? null : sender.get(key);
        if (v != null && v.isNumber()) {
            values.add(v.asDouble());
        }
        for (Receiver r : receivers) {
            double x = r.get(key);
            if (!Double.isNaN(x)) {
                values.add(x);
            }
        }
        if (values.isEmpty()) {
            return Double.NaN;
        }
        values.sort(null);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    /**
     * "processor canary 120 µs in the run, 119 before (median of nodes)", or empty where the
     * reports do not say.
     */
    String canaryLine() {
        double in = medianOverNodes("canaryMicrosInRun");
        double before = medianOverNodes("canaryMicrosBefore");
        if (Double.isNaN(in)) {
            return "";
        }
        return String.format(Locale.ROOT, "processor canary %.0f µs in the run, %s before (median of nodes)", in,
                Double.isNaN(before) ? "?" : String.format(Locale.ROOT, "%.0f", before));
    }

    /**
     * The receivers that got fewer warm-up messages than were sent, as "node N x", worst first
     * (empty if none did, or nothing says). The verdict reads the measured run only, as the
     * blueprint's did; a warm-up at the same rate that lost messages says the run started from a
     * chain that had been struggling.
     */
    String warmupShortfall() {
        long sent = experiment.warmupMessages();
        List<Receiver> lostSome = new ArrayList<>();
        for (Receiver r : receivers) {
            double got = r.get("warmupMessages");
            if (!Double.isNaN(got) && got < sent) {
                lostSome.add(r);
            }
        }
        lostSome.sort(Comparator.comparingDouble(r -> r.get("warmupMessages")));
        StringBuilder b = new StringBuilder();
        for (Receiver r : lostSome) {
            b.append(b.length() == 0 ? "" : ", ").append("node ").append(r.node()).append(' ')
                    .append((long) r.get("warmupMessages"));
        }
        return b.length() == 0 ? "" : b + " of " + sent;
    }

    /**
     * How long the sender waited after the warm-up for every receiver to have all of it, as
     * "warm-up complete everywhere after 1.2 s" or "warm-up incomplete at 2 of 5 receivers, stalled
     * after 3.1 s"; empty if the sender's report does not say.
     */
    String warmupWait() {
        JsonNode ms = sender == null ? null : sender.get("warmupWaitMs");
        JsonNode outcome = sender == null ? null : sender.get("warmupOutcome");
        if (ms == null || !ms.isNumber() || outcome == null || !outcome.isTextual()) {
            return "";
        }
        String after = String.format(Locale.ROOT, " after %.1f s", ms.asDouble() / 1e3);
        if (outcome.asText().equals("complete")) {
            return "warm-up complete everywhere" + after;
        }
        int ready = sender.path("receiversReady").asInt();
        return "warm-up incomplete at " + (ready - sender.path("receiversWarmedUp").asInt()) + " of " + ready + " receivers, "
                + outcome.asText() + after;
    }

    /** Messages missing summed over the receivers (a receiver without a report counts the whole run). */
    long totalMissing() {
        long n = 0;
        for (Receiver r : receivers) {
            n += r.summary == null ? experiment.count() : r.missing();
        }
        return n;
    }
}
