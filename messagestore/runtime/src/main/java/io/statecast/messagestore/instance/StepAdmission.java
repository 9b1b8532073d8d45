package io.statecast.messagestore.instance;

/**
 * What an instance does with an event offered to it, given its primitive budget
 * ({@code instances.primitiveRatePerSecond}, {@code primitiveBurst}). The budget is checked
 * before a step, never inside one: a step's actions all run, or the chart never sees the event.
 */
public enum StepAdmission {
    /** The budget holds a call (or the instance was just created for this event): the event is stepped now. */
    STEP,
    /**
     * The budget is spent and the event must not be lost (a timer expiry, a message of the
     * node's own application): it waits in the instance, in order, and is stepped when the
     * budget refills.
     */
    DEFER,
    /**
     * The budget is spent (or events wait for it): a message from the network is dropped before
     * the chart sees it, as if the network had lost it; the caller counts it ({@code THROTTLED}).
     */
    REFUSE
}
