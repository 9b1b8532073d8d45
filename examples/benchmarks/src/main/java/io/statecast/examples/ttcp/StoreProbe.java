package io.statecast.examples.ttcp;

import io.statecast.messagestore.MessageStore;
import io.statecast.overlay.forward.MessageStorePort;
import java.util.Map;

/**
 * Reads the blueprint's MessageStore metrics (Table 6.1: T_msg, L_data, L_control, N_FSM) from
 * the store installed in a socket. The Statecast {@link MessageStore} exposes them (its
 * {@code metrics()}); for any other store, or none, every value is unknown and {@link #reason()} says why, and ttcp reports
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
     * @param tMsgMeanMicros    mean per-message processing time since the previous reading (T_msg);
     *                          {@code null} if no message was processed in between
     * @param tMsgMaxMicros     largest per-message processing time so far
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
     * The store's drops so far by cause (every cause, zeros included, lower-case names of
     * {@code io.statecast.messagestore.metrics.DropReason}), or {@code null} if
     * {@link #available()} is false.
     */
    Map<String, Long> drops();

    /**
     * What the store did so far: {@code messages}, {@code timerEvents}, instances {@code created},
     * {@code finished} (final state), {@code terminated} (the spec gave up, or the store ended it)
     * and {@code expired}, then each primitive executed at least once by its spec name — a recovery
     * storm shows as timer events and {@code sendControlMessage} calls many times the messages;
     * {@code null} if {@link #available()} is false.
     */
    Map<String, Long> activity();

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
        if (store instanceof MessageStore ms) {
            return new MessageStoreProbe(ms);
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

            @Override
            public Map<String, Long> drops() {
                return null;
            }

            @Override
            public Map<String, Long> activity() {
                return null;
            }
        };
    }
}
