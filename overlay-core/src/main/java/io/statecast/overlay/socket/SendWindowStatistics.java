package io.statecast.overlay.socket;

/**
 * What a socket's send window did so far ({@link OverlaySocket#sendWindowStatistics()}).
 *
 * @param waits       sends that found the window full and waited
 * @param waitedNanos total time those sends waited
 * @param failures    sends that gave up ({@link SendWindowException}: deadline or interrupt)
 */
public record SendWindowStatistics(long waits, long waitedNanos, long failures) {
}
