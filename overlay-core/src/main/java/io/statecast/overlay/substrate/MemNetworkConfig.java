package io.statecast.overlay.substrate;

/**
 * Settings of a {@link MemNetwork}.
 *
 * @param maxFrameBytes     largest frame an interface sends; default {@value #DEFAULT_MAX_FRAME_BYTES}
 *                          (the codec's default maximum), 1..16 MiB
 * @param maxInFlightFrames frames scheduled for delivery at most, network-wide; more are dropped
 *                          and counted ({@link InterfaceMetrics.SendDrop#IN_FLIGHT_LIMIT}), so that
 *                          a runaway simulation fails visibly instead of exhausting memory; default
 *                          {@value #DEFAULT_MAX_IN_FLIGHT_FRAMES}, 1..100,000,000
 */
public record MemNetworkConfig(int maxFrameBytes, int maxInFlightFrames) {

    /** Default of {@link #maxFrameBytes()}. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 64 * 1024;
    /** Default of {@link #maxInFlightFrames()}. */
    public static final int DEFAULT_MAX_IN_FLIGHT_FRAMES = 1_000_000;

    /** Validates every field, naming it and its limit on failure. */
    public MemNetworkConfig {
        if (maxFrameBytes < 1 || maxFrameBytes > 16 * 1024 * 1024) {
            throw new IllegalArgumentException("maxFrameBytes=" + maxFrameBytes + " must be within 1..16777216");
        }
        if (maxInFlightFrames < 1 || maxInFlightFrames > 100_000_000) {
            throw new IllegalArgumentException("maxInFlightFrames=" + maxInFlightFrames + " must be within 1..100000000");
        }
    }

    /** The documented defaults. */
    public static MemNetworkConfig defaults() {
        return new MemNetworkConfig(DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_IN_FLIGHT_FRAMES);
    }
}
