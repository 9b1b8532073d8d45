package io.statecast.examples.ttcp;

import java.util.Arrays;

/** The arithmetic of the blueprint's metrics (Table 6.1), on plain arrays. */
public final class TtcpStats {

    /** The blueprint's throughput window: the 500 last received data messages. */
    public static final int THROUGHPUT_WINDOW = 500;

    private TtcpStats() {
    }

    /**
     * The nearest-rank percentile of sorted values.
     *
     * @param sorted ascending values, not empty
     * @param p      0..100
     */
    public static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("p=" + p + " must be within 0..100");
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** A sorted copy. */
    public static double[] sorted(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s;
    }

    /**
     * The blueprint's moving-window throughput, in kilobits per second, over messages in the
     * order they were received: for each {@code j >= window - 1},
     * {@code (S_{j-window+1} + … + S_j) / (T_received,j − T_sent,j-window+1)}.
     *
     * @param sentMicros     send times in arrival order
     * @param receivedMicros receive times in arrival order
     * @param sizeBytes      the size of every message
     * @param window         messages per window
     * @return one value per window end, index 0 for message {@code window - 1}; empty if fewer
     *         messages arrived. A window whose span is not positive counts as one microsecond.
     */
    public static double[] movingThroughputKbps(long[] sentMicros, long[] receivedMicros, int sizeBytes, int window) {
        int n = Math.min(sentMicros.length, receivedMicros.length);
        if (n < window) {
            return new double[0];
        }
        double bits = 8.0 * sizeBytes * window;
        double[] out = new double[n - window + 1];
        for (int j = window - 1; j < n; j++) {
            long span = Math.max(1, receivedMicros[j] - sentMicros[j - window + 1]);
            out[j - window + 1] = bits / span * 1_000.0; // bits per microsecond is Mbit/s; x1000 is kbit/s
        }
        return out;
    }

    /**
     * The least-squares slope of {@code y} over {@code x}, or NaN with fewer than two distinct x.
     */
    public static double slope(double[] x, double[] y) {
        int n = Math.min(x.length, y.length);
        if (n < 2) {
            return Double.NaN;
        }
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            double dx = x[i] - mx;
            sxy += dx * (y[i] - my);
            sxx += dx * dx;
        }
        return sxx == 0 ? Double.NaN : sxy / sxx;
    }
}
