package io.statecast.messagestore.action;

/** What became of one action the engine asked for. */
public enum ActionOutcome {
    /** The primitive ran (a send may still have reached nobody; the overlay counts that). */
    EXECUTED,
    /** The fields did not make a valid call, or an expression failed; nothing happened. */
    FAILED,
    /**
     * A send (data, control or forward) over its service's node-wide send budget
     * ({@code MessageStoreConfig.sendBudget}); nothing was sent.
     */
    OVER_SERVICE_BUDGET,
    /** The instance terminated earlier in the same step; the action was dropped. */
    DISCARDED
}
