package io.statecast.messagestore.flow;

import io.statecast.overlay.socket.OverlayConfig;

/**
 * The effective send window of one service under AIMD ({@link OverlayConfig.SendWindow#aimd()}):
 * it starts at the configured window and halves on congestion, not on isolated random loss.
 *
 * <p>The store's signal is a repeated timeout: an own message in flight reached a second timer
 * event (its retransmission, or the repeated request for its acknowledgement, went unanswered
 * too). The window halves once the signals since the start of the current window's worth of
 * completions exceed a quarter of the window ({@link #CONGESTED_SHARE}), while at least half the
 * window is in flight, at most once until the messages in flight at that moment have left the
 * in-flight states. Random loss of p per datagram repeats a round trip with probability about
 * (2p)²: 1 % at 5 %, 13 % at 20 % per acknowledging neighbour, well under a quarter, so it no
 * longer halves the window (it did on every timeout, collapsing {@code h2h-ack} at 20 % loss to
 * its floor); a path over its capacity drops most of what exceeds it, and repeats pile up.
 *
 * <p>Growth is BIC's binary search (Xu, Harfoush and Rhee, 2004), counted in completions rather
 * than round trips: below the window it had when it last halved, each window's worth of
 * completions closes half the remaining distance; at or above it, each grows the window by its
 * distance beyond that point (so probing starts at +1 and doubles). Every step is at least one
 * message per window's worth (TCP's congestion avoidance) and at most one per completion (slow
 * start; the +1 per acknowledgement of our source 000's sliding window). Additive increase alone
 * took about 470,000 completions to climb from 262 back to 1,024 after halvings that a stall of
 * the receivers, not the path, had caused; binary search takes a few windows.
 *
 * <p>A halving before the window is back at that point lowers the point to between the two
 * (BIC's fast convergence), so sources sharing a path give way to each other.
 *
 * <p>Fed with the store's monotonic counters before each send; thread-safe (sends of one service
 * may come from several threads).
 */
final class AimdWindow {

    /** The share of a window's worth of messages whose timeouts must repeat before it halves. */
    static final double CONGESTED_SHARE = 0.25;

    private final int max;
    private final int min;
    private double window;
    /** Where binary search aims: the window at the last halving (lowered by fast convergence). */
    private double target;
    private long seenTimeouts;
    private long seenCompletions;
    /** No halving before completions reach this: the messages in flight at the last halving. */
    private long recoverAt;
    private long halvings;
    /** Where the current window's worth of completions started, and the signals since. */
    private long epochStart;
    private long epochSignals;

    /**
     * @param max         the configured window
     * @param timeouts    the store's repeated timeouts so far
     * @param completions the store's completions so far
     */
    AimdWindow(int max, long timeouts, long completions) {
        this.max = max;
        this.min = Math.min(max, OverlayConfig.SendWindow.MIN_AIMD_WINDOW);
        this.window = max;
        this.target = max;
        this.seenTimeouts = timeouts;
        this.seenCompletions = completions;
        this.recoverAt = completions;
        this.epochStart = completions;
    }

    /**
     * Takes in the store's counters and returns the effective window.
     *
     * @param timeouts    repeated timeouts so far (monotonic)
     * @param completions messages that left the in-flight states so far (monotonic)
     * @param inFlight    messages in flight now
     */
    synchronized int update(long timeouts, long completions, int inFlight) {
        if (completions > seenCompletions) {
            grow(completions - seenCompletions);
            seenCompletions = completions;
        }
        if (completions - epochStart >= window) {
            // a window's worth resolved: signals older than that were isolated losses
            epochStart = completions;
            epochSignals = 0;
        }
        if (timeouts > seenTimeouts) {
            epochSignals += timeouts - seenTimeouts;
            seenTimeouts = timeouts;
            // Only a source the window holds back halves it. One that keeps far fewer messages in
            // flight is paced by its application, so its timeouts are losses its own sending did
            // not cause; halving on them throttled a 500 msgs/s sender on a path with 5 % random
            // loss to 86 msgs/s (the demo). Paced above what the path takes, its messages pile up
            // in flight until the window does hold it back, and then it halves.
            if (epochSignals > window * CONGESTED_SHARE && completions >= recoverAt && inFlight >= window / 2) {
                target = window < target ? (window + target) / 2 : window;
                window = Math.max(min, window / 2);
                recoverAt = completions + inFlight;
                halvings++;
                epochStart = completions;
                epochSignals = 0;
            }
        }
        return (int) window;
    }

    /** Grows by {@code completed} completions' share of this window's step. */
    private void grow(long completed) {
        if (window >= max) {
            return;
        }
        double distance = window < target ? (target - window) / 2 : window - target;
        double step = Math.min(window, Math.max(1, distance));
        double grown = window + completed * step / window;
        // Binary search stops at its target; probing beyond it goes on from there next time.
        window = Math.min(max, window < target ? Math.min(target, grown) : grown);
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
