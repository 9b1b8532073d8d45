package io.statecast.overlay.socket;

/**
 * What a socket's send window did so far ({@link OverlaySocket#sendWindowStatistics()}).
 *
 * @param waits       sends that found the window full and waited
 * @param waitedNanos total time those sends waited
 * @param failures    sends that gave up ({@link SendWindowException}: deadline or interrupt)
 * @param halvings    times an AIMD window was halved (0 without AIMD)
 * @param window      the smallest effective window of any service now (the configured window
 *                    without AIMD, or before the first windowed send)
 */
public record SendWindowStatistics(long waits, long waitedNanos, long failures, long halvings, int window) {
}
