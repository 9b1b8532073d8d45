package io.statecast.messagestore.tools.scenario;

import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;

/**
 * What the harness saw an instance do through the overlay and its timers, in order; matched to
 * the instance's action records to describe each primitive call with its parameters.
 */
sealed interface Effect {

    /**
     * One message sent by sendDataMessage; {@code action} is the index of the action record being
     * executed (a destination XPath selecting several addresses sends one message to each).
     */
    record SendData(long messageId, byte[] payload, Route route, MessageFields fields, long action) implements Effect {
    }

    /** One message sent by sendControlMessage; {@code action} as for {@link SendData}. */
    record SendControl(byte type, long messageId, Route route, MessageFields fields, long action) implements Effect {
    }

    /**
     * One message forwarded by forwardMessage; {@code action} is the index of the action record
     * being executed (one call may select several messages).
     */
    record Forward(OverlayMessage message, long action) implements Effect {
    }

    /** One message delivered by toApplication; {@code action} as for {@link Forward}. */
    record ToApplication(OverlayMessage message, long action) implements Effect {
    }

    /** A timer scheduled (setTimer). */
    record Schedule(int timerId, long delayMillis) implements Effect {
    }

    /** A pending timer cancelled (cancelTimer, a re-set, or the end of the instance). */
    record Cancel(int timerId) implements Effect {
    }
}
