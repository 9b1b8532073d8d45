package io.statecast.messagestore.chart;

/**
 * A bound of {@link ChartLimits} whose excess <em>stops</em> a session: the chart cannot go on
 * (it loops without waiting for an event, or it lost an event it queued). The other bounds
 * ({@code maxForeachItems}, {@code maxPendingSends}, {@code maxDataNodes}) refuse one piece of
 * executable content with {@code error.execution}, which the chart may handle, and do not stop it.
 */
public enum ChartLimit {
    /** {@link ChartLimits#maxMicrosteps}: one macrostep took more microsteps (an eventless or raise loop). */
    MICROSTEPS("maxMicrosteps"),
    /** {@link ChartLimits#maxQueuedEvents}: the internal and external queues together overflowed. */
    QUEUED_EVENTS("maxQueuedEvents");

    private final String setting;

    ChartLimit(String setting) {
        this.setting = setting;
    }

    /** The name of the bound in {@link ChartLimits}, as logs and docs spell it. */
    public String setting() {
        return setting;
    }

    /** The value of this bound in {@code limits}. */
    public int value(ChartLimits limits) {
        return switch (this) {
            case MICROSTEPS -> limits.maxMicrosteps();
            case QUEUED_EVENTS -> limits.maxQueuedEvents();
        };
    }
}
