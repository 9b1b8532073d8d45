package io.statecast.examples.ttcp;

import io.statecast.overlay.forward.MessageStorePort;

/**
 * Reads the blueprint's MessageStore metrics (Table 6.1: T_msg, L_data, L_control, N_FSM) from
 * the store installed in a socket. Which stores expose them is decided in {@link #of}; for any
 * other store, or none, every value is unknown and {@link #reason()} says why, and ttcp reports
 * {@code null} for them rather than a made-up zero.
 */
public interface StoreProbe {

    /**
     * One reading; {@code null} where the store does not say.
     *
     * @param dataBacklog       data messages waiting in the store's queue (L_data)
     * @param controlBacklog    control messages waiting in the store's queue (L_control)
     * @param liveInstances     service instances (FSMs) held (N_FSM)
     * @param processed         messages the store has processed so far
     * @param tMsgMeanMicros    mean per-message processing time since the previous reading (T_msg)
     * @param tMsgMaxMicros     largest per-message processing time since the previous reading
     */
    record Snapshot(Long dataBacklog, Long controlBacklog, Long liveInstances, Long processed,
            Double tMsgMeanMicros, Double tMsgMaxMicros) {
    }

    /** Whether this probe reads anything. */
    boolean available();

    /** Which store is read, or why nothing is. */
    String reason();

    /** A reading now, or {@code null} if {@link #available()} is false. */
    Snapshot snapshot();

    /**
     * The probe for a socket's store.
     *
     * @param store the installed store, or {@code null} if the socket has none
     */
    static StoreProbe of(MessageStorePort store) {
        if (store == null) {
            return unavailable("no MessageStore is installed (the configuration has no overlay.messageStore section): "
                    + "messages are delivered best-effort and there is no T_msg, backlog or instance count to report");
        }
        return unavailable("the installed MessageStore (" + store.getClass().getName()
                + ") exposes no metrics to ttcp yet: T_msg, backlogs and live instances are reported as null");
    }

    /** A probe that reads nothing, for {@code reason}. */
    static StoreProbe unavailable(String reason) {
        return new StoreProbe() {
            @Override
            public boolean available() {
                return false;
            }

            @Override
            public String reason() {
                return reason;
            }

            @Override
            public Snapshot snapshot() {
                return null;
            }
        };
    }
}
