package io.statecast.messagestore.spec;

/**
 * Timers for a machine's delayed {@code <send>}s: in the runtime, its instance's own timers on
 * the shard's timer wheel (bounded by {@code timersPerInstance}), so a delayed event arrives on
 * the instance's thread like a timer expiry.
 */
public interface MachineTimers {

    /** Timers for a machine whose spec has no delayed sends: scheduling one fails. */
    MachineTimers NONE = new MachineTimers() {
        @Override
        public Object schedule(long delayMillis, Runnable task) {
            throw new IllegalStateException("this machine has no timers for delayed <send>");
        }

        @Override
        public void cancel(Object handle) {
        }
    };

    /**
     * Runs {@code task} on the instance's thread after {@code delayMillis}, through
     * {@link MachineState#runDelayed}.
     *
     * @return a handle for {@link #cancel}
     * @throws IllegalStateException naming why no timer can be set (the instance's limit)
     */
    Object schedule(long delayMillis, Runnable task);

    /** Cancels a task not yet run. */
    void cancel(Object handle);
}
