package io.statecast.messagestore.instance;

import io.statecast.overlay.substrate.TimerService;

/**
 * One setting of an instance's timer, as its environment scheduled it: the handle that cancels
 * it, carrying the timer's id and the generation its expiry brings back. The instance keeps only
 * these handles (one array), not parallel arrays of ids and generations beside them.
 */
public interface ArmedTimer extends TimerService.Timer {

    /** The spec's timer identifier. */
    int timerId();

    /** The generation {@link ServiceInstance#onTimer(int, long)} receives when it expires. */
    long generation();

    /** A handle for a timer {@code timer} scheduled with a general-purpose timer service. */
    static ArmedTimer of(int timerId, long generation, TimerService.Timer timer) {
        return new Wrapped(timerId, generation, timer);
    }

    /** {@link #of}: a scheduled task and what it was scheduled for. */
    record Wrapped(int timerId, long generation, TimerService.Timer timer) implements ArmedTimer {
        @Override
        public boolean cancel() {
            return timer.cancel();
        }
    }
}
