package io.statecast.it.testbed;

import java.util.Locale;

/**
 * One ttcp run on the chain: node 1 sends, nodes 2..hops+1 receive.
 *
 * @param hops           overlay hops from the sender to the last receiver (1..31)
 * @param rateMbps       payload send rate in Mbit/s; {@link Double#POSITIVE_INFINITY} for as fast as possible
 * @param count          data messages
 * @param size           payload bytes
 * @param service        the service's name as given ({@code none} for best-effort)
 * @param serviceId      the ServiceID sent, or {@code null} for best-effort
 * @param lossPercent    drop percentage on every link while it runs
 * @param warmupMessages messages sent before the measured run
 */
record Experiment(int hops, double rateMbps, int count, int size, String service, Integer serviceId, int lossPercent,
        int warmupMessages) {

    Experiment {
        if (hops < 1 || hops > 31) {
            throw new IllegalArgumentException("hops=" + hops + " must be within 1..31");
        }
        if (!(rateMbps > 0)) {
            throw new IllegalArgumentException("rate=" + rateMbps + " Mbit/s must be > 0");
        }
    }

    /** Messages per second of the payload rate. */
    double messagesPerSecond() {
        return messagesPerSecond(rateMbps, size);
    }

    private static double messagesPerSecond(double rateMbps, int size) {
        return Double.isInfinite(rateMbps) ? Double.POSITIVE_INFINITY : rateMbps * 1e6 / (8.0 * size);
    }

    /**
     * Warm-up messages lasting {@code seconds} at {@code rateMbps}, and at least {@code minimum}; at
     * full speed, the minimum.
     */
    static int warmupMessages(double rateMbps, int size, double seconds, int minimum) {
        if (Double.isInfinite(rateMbps)) {
            return minimum;
        }
        return (int) Math.max(minimum, Math.min(Integer.MAX_VALUE / 2, Math.round(messagesPerSecond(rateMbps, size) * seconds)));
    }

    /** A name usable as a directory name. */
    String name() {
        String rate = Double.isInfinite(rateMbps) ? "max" : String.format(Locale.ROOT, "%.2fmbps", rateMbps);
        return String.format(Locale.ROOT, "%s-%dhop-%s-%dmsg%s", service, hops, rate, count,
                lossPercent > 0 ? "-loss" + lossPercent : "");
    }

    /** The rate as the tables print it. */
    String rateLabel() {
        return Double.isInfinite(rateMbps) ? "max" : String.format(Locale.ROOT, "%.2f", rateMbps);
    }
}
