package io.statecast.overlay.socket;

/**
 * The effective send window of one service under AIMD ({@link OverlayConfig.SendWindow#aimd()}):
 * it starts at the configured window, halves on a congestion signal from the store (an own
 * message in flight reached a timer) while at least half the window is in flight, at most once
 * until the messages in flight at that moment have left the in-flight states, and grows by
 * 1/window per message that left them. Fed with the
 * store's monotonic counters before each send; thread-safe (sends of one service may come from
 * several threads).
 */
final class AimdWindow {

    private final int max;
    private final int min;
    private double window;
    private long seenTimeouts;
    private long seenCompletions;
    /** No halving before completions reach this: the messages in flight at the last halving. */
    private long recoverAt;
    private long halvings;

    /**
     * @param max         the configured window
     * @param timeouts    the store's congestion signals so far
     * @param completions the store's completions so far
     */
    AimdWindow(int max, long timeouts, long completions) {
        this.max = max;
        this.min = Math.min(max, OverlayConfig.SendWindow.MIN_AIMD_WINDOW);
        this.window = max;
        this.seenTimeouts = timeouts;
        this.seenCompletions = completions;
        this.recoverAt = completions;
    }

    /**
     * Takes in the store's counters and returns the effective window.
     *
     * @param timeouts    congestion signals so far (monotonic)
     * @param completions messages that left the in-flight states so far (monotonic)
     * @param inFlight    messages in flight now
     */
    synchronized int update(long timeouts, long completions, int inFlight) {
        if (completions > seenCompletions) {
            window = Math.min(max, window + (completions - seenCompletions) / window);
            seenCompletions = completions;
        }
        if (timeouts > seenTimeouts) {
            seenTimeouts = timeouts;
            // Only a source the window holds back halves it. One that keeps far fewer messages in
            // flight is paced by its application, so its timeouts are losses its own sending did
            // not cause; halving on them throttled a 500 msgs/s sender on a path with 5 % random
            // loss to 86 msgs/s (the demo). Paced above what the path takes, its messages pile up
            // in flight until the window does hold it back, and then it halves.
            if (completions >= recoverAt && inFlight >= window / 2) {
                window = Math.max(min, window / 2);
                recoverAt = completions + inFlight;
                halvings++;
            }
        }
        return (int) window;
    }

    /** Halvings so far. */
    synchronized long halvings() {
        return halvings;
    }

    /** The effective window now. */
    synchronized int current() {
        return (int) window;
    }
}
