package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.overlay.message.OverlayMessage;
import java.util.List;
import java.util.Objects;

/**
 * One input symbol the checker can feed an instance: a message arriving, a timer expiring, or
 * (first input only, for a spec with {@code <Start>}) the store starting the node's own instance.
 */
public sealed interface Input {

    /** How a trace names it. */
    String label();

    /**
     * A concrete message the spec's filters accept.
     *
     * @param index  its position in the alphabet (identifies it in the history abstraction)
     * @param origin where it comes from: a peer's name, or {@code local} (the node's application)
     * @param message the message
     * @param fires  the basic events it fires, in spec order (non-empty)
     */
    record Arrival(int index, String origin, OverlayMessage message, List<MessageEventDefinition> fires)
            implements Input {

        /** Copies the events. */
        public Arrival {
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(message, "message");
            fires = List.copyOf(fires);
        }

        @Override
        public String label() {
            StringBuilder sb = new StringBuilder();
            for (MessageEventDefinition d : fires) {
                sb.append(sb.length() == 0 ? "" : "+").append(d.name());
            }
            return sb.append(" from ").append(origin).toString();
        }
    }

    /**
     * The expiry of the instance's timer.
     *
     * @param timerId the timer
     */
    record Expiry(int timerId) implements Input {
        @Override
        public String label() {
            return "timer " + timerId + " expires";
        }
    }

    /**
     * The service is deployed: the store fires the spec's {@code <Start>} event in the node's own
     * instance. Only ever the first input of an instance.
     *
     * @param event the start event
     */
    record Deploy(String event) implements Input {

        /** Requires the event. */
        public Deploy {
            Objects.requireNonNull(event, "event");
        }

        @Override
        public String label() {
            return event + " (deployed: the node's own instance)";
        }
    }
}
