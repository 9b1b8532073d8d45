package io.statecast.messagestore.chart;

/**
 * Bounds on what one session may do, so that a hostile or mistaken chart cannot loop or grow
 * without end. Passing {@code maxMicrosteps} or {@code maxQueuedEvents} stops the session
 * ({@link ChartLimit}, {@link Session#stoppedBy()}; the runtime then ends its instance); passing
 * any other bound raises {@code error.execution} for the content that would pass it, which the
 * chart may handle.
 *
 * @param maxMicrosteps    microsteps one macrostep may take before the session is stopped as
 *                         looping (default 10,000)
 * @param maxQueuedEvents  internal plus external events a session may hold (default 10,000)
 * @param maxForeachItems  items one {@code <foreach>} may iterate (default 10,000)
 * @param maxPendingSends  delayed {@code <send>}s a session may have outstanding (default 1,000)
 * @param maxDataNodes     nodes the datamodel's document may hold; an {@code <assign>} that would
 *                         pass it raises {@code error.execution} and changes nothing (default 10,000)
 */
public record ChartLimits(int maxMicrosteps, int maxQueuedEvents, int maxForeachItems, int maxPendingSends,
        int maxDataNodes) {

    /** The defaults above. */
    public static final ChartLimits DEFAULTS = new ChartLimits(10_000, 10_000, 10_000, 1_000, 10_000);

    /** Every bound must be positive. */
    public ChartLimits {
        if (maxMicrosteps <= 0 || maxQueuedEvents <= 0 || maxForeachItems <= 0 || maxPendingSends <= 0
                || maxDataNodes <= 0) {
            throw new IllegalArgumentException("chart limits must be positive");
        }
    }
}
