package io.statecast.overlay.substrate;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The blueprint's <em>timer thread</em>, owned by the adapter and used by every layer above it.
 * Tasks given to one timer service run one at a time, in time order, on its own thread (or, for
 * a virtual clock, on the thread that advances the clock), so a component whose every callback is
 * posted here needs no locks. The clock is injected: tests use a virtual implementation and
 * advance it instead of sleeping.
 */
public interface TimerService extends Executor {

    /** Monotonic time in nanoseconds (virtual time for a virtual clock). */
    long nanoTime();

    /** {@link #nanoTime()} in milliseconds. */
    default long currentTimeMillis() {
        return TimeUnit.NANOSECONDS.toMillis(nanoTime());
    }

    /**
     * Runs {@code task} once after {@code delay}. A task that throws is logged and does not
     * stop the service.
     *
     * @return a handle that cancels the task if it has not started
     */
    Timer schedule(long delay, TimeUnit unit, Runnable task);

    /** Runs {@code task} as soon as possible on this service's thread, after tasks already due. */
    @Override
    void execute(Runnable task);

    /** A scheduled task. */
    interface Timer {
        /** Cancels the task; returns false if it already ran or was cancelled. */
        boolean cancel();
    }
}
