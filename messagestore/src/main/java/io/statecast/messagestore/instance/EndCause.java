package io.statecast.messagestore.instance;

/** Why a service instance ended. */
public enum EndCause {
    /** The spec executed {@code terminate}. */
    TERMINATED,
    /** The state machine reached a top-level final state. */
    FINISHED,
    /** No message reached it for the idle timeout. */
    IDLE,
    /** Its service was unloaded. */
    UNLOADED,
    /** Its service was quarantined. */
    QUARANTINED,
    /** The store closed. */
    CLOSED
}
