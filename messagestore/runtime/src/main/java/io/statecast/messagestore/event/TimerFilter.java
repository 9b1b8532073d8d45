package io.statecast.messagestore.event;

/**
 * The filter of a timer basic event.
 *
 * @param timerId the timer identifier that fires the event, or {@link #ANY_TIMER}
 */
public record TimerFilter(int timerId) {

    /** Written {@code <Timer/>}: every timer of the instance. */
    public static final int ANY_TIMER = -1;

    /** Checks the identifier. */
    public TimerFilter {
        if (timerId < ANY_TIMER) {
            throw new IllegalArgumentException("timer identifier must be >= 0, got " + timerId);
        }
    }

    /** Whether an expiry of the timer with this identifier fires the event. */
    public boolean matches(int expiredTimerId) {
        return timerId == ANY_TIMER || timerId == expiredTimerId;
    }
}
