package io.statecast.overlay.node;

/**
 * A neighbour's round-trip time as this node measures it from heartbeat timestamps: the smoothed
 * RTT and its variation after RFC 6298 (section 2): the first sample R sets
 * {@code SRTT = R, RTTVAR = R/2}; each later sample R' sets
 * {@code RTTVAR = (1 - 1/4) RTTVAR + 1/4 |SRTT - R'|}, then {@code SRTT = (1 - 1/8) SRTT + 1/8 R'}.
 * Samples are whole microseconds of the node's monotonic clock; the estimates keep their
 * fractions (doubles), so a sequence of samples gives the same estimate on every platform.
 * Immutable.
 *
 * @param srttMicros   smoothed round-trip time, microseconds
 * @param rttvarMicros round-trip time variation, microseconds
 * @param samples      how many samples went into it, at least 1
 */
public record RttEstimate(double srttMicros, double rttvarMicros, long samples) {

    /** RFC 6298's alpha: the weight of a new sample in SRTT. */
    public static final double ALPHA = 1.0 / 8;
    /** RFC 6298's beta: the weight of a new deviation in RTTVAR. */
    public static final double BETA = 1.0 / 4;

    /** Checks the parts. */
    public RttEstimate {
        if (!(srttMicros >= 0) || !(rttvarMicros >= 0) || samples < 1) {
            throw new IllegalArgumentException("an RTT estimate needs srtt >= 0, rttvar >= 0, samples >= 1; got "
                    + srttMicros + ", " + rttvarMicros + ", " + samples);
        }
    }

    /** The estimate after a first sample of {@code sampleMicros}. */
    public static RttEstimate first(long sampleMicros) {
        checkSample(sampleMicros);
        return new RttEstimate(sampleMicros, sampleMicros / 2.0, 1);
    }

    /** This estimate updated with one more sample of {@code sampleMicros}. */
    public RttEstimate next(long sampleMicros) {
        checkSample(sampleMicros);
        double rttvar = (1 - BETA) * rttvarMicros + BETA * Math.abs(srttMicros - sampleMicros);
        double srtt = (1 - ALPHA) * srttMicros + ALPHA * sampleMicros;
        return new RttEstimate(srtt, rttvar, samples + 1);
    }

    /** SRTT in milliseconds. */
    public double srttMillis() {
        return srttMicros / 1000.0;
    }

    /**
     * The retransmission timeout of RFC 6298 (section 2.3) in milliseconds, without its 1 s floor
     * and 60 s cap (a service applies its own): {@code SRTT + max(G, 4 RTTVAR)} with the clock
     * granularity G = {@value #GRANULARITY_MILLIS} ms, the timers' tick.
     */
    public double rtoMillis() {
        return srttMillis() + Math.max(GRANULARITY_MILLIS, 4 * rttvarMillis());
    }

    /** The G of {@link #rtoMillis()}: the granularity of the nodes' timers, in ms. */
    public static final double GRANULARITY_MILLIS = 1.0;

    /** RTTVAR in milliseconds. */
    public double rttvarMillis() {
        return rttvarMicros / 1000.0;
    }

    private static void checkSample(long sampleMicros) {
        if (sampleMicros < 0) {
            throw new IllegalArgumentException("an RTT sample cannot be negative: " + sampleMicros + " µs");
        }
    }
}
