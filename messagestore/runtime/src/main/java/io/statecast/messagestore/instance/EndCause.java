package io.statecast.messagestore.instance;

/** Why a service instance ended. */
public enum EndCause {
    /** The spec executed {@code terminate}. */
    TERMINATED,
    /** The state machine reached a top-level final state. */
    FINISHED,
    /**
     * A bound of the state machine stopped it ({@code ServiceInstance.stoppedBy()} says which
     * {@link io.statecast.messagestore.chart.ChartLimit}): that instance ends, its service goes on.
     */
    LIMIT,
    /** No message reached it for the idle timeout. */
    IDLE,
    /** Its service was unloaded. */
    UNLOADED,
    /** Its service was quarantined. */
    QUARANTINED,
    /** The store closed. */
    CLOSED
}
