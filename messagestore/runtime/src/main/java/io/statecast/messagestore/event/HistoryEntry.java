package io.statecast.messagestore.event;

import io.statecast.overlay.message.OverlayMessage;
import java.util.Objects;

/**
 * One entry of an instance's history (the blueprint's <em>historyOfEvents</em> table): a basic
 * event that fired, or a node-information record written by {@code updateNodeInfo}. Entries are
 * immutable; {@code timeMillis} is the node's clock when the entry was recorded.
 */
public sealed interface HistoryEntry {

    /** When the entry was recorded, in milliseconds of the node's clock. */
    long timeMillis();

    /**
     * A message basic event. A message that fires several basic events (one-to-many mapping) is
     * recorded once per event, each entry naming one.
     *
     * @param name       the basic event's name
     * @param message    the message as it arrived
     * @param timeMillis when it was recorded
     */
    record MessageEvent(String name, OverlayMessage message, long timeMillis) implements HistoryEntry {
        /** Requires a name and a message. */
        public MessageEvent {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * A timer basic event.
     *
     * @param name       the basic event's name
     * @param timerId    the instance-local timer identifier that expired
     * @param timeMillis when it was recorded
     */
    record TimerEvent(String name, int timerId, long timeMillis) implements HistoryEntry {
        /** Requires a name. */
        public TimerEvent {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * Node information written by {@code updateNodeInfo}.
     *
     * @param node       the snapshot
     * @param timeMillis when it was recorded
     */
    record NodeRecord(NodeSnapshot node, long timeMillis) implements HistoryEntry {
        /** Requires a snapshot. */
        public NodeRecord {
            Objects.requireNonNull(node, "node");
        }
    }
}
