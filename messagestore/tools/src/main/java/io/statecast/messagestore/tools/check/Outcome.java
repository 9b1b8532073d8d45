package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.spec.Primitive;
import java.util.List;
import java.util.Objects;

/**
 * What one input did to an instance.
 *
 * @param after    the instance afterwards
 * @param calls    the primitives called, in order
 * @param fired    the events that fired (basic, then composite), in order
 * @param failures what went wrong (a failed action, a query that raised an error), in order
 */
record Outcome(Snapshot after, List<Call> calls, List<Fired> fired, List<Failure> failures) {

    /** Copies the lists. */
    Outcome {
        Objects.requireNonNull(after, "after");
        calls = List.copyOf(calls);
        fired = List.copyOf(fired);
        failures = List.copyOf(failures);
    }

    /**
     * One primitive call.
     *
     * @param primitive the primitive
     * @param line      the line of its {@code action:execute}… group (the template's line)
     * @param timerId   the timer it set or cancelled, else −1
     * @param detail    what it would have done ("unicast to parent"), may be empty
     */
    record Call(Primitive primitive, int line, int timerId, String detail) {

        /** Whether it sends a message or hands one to the application. */
        boolean emits() {
            return primitive == Primitive.SEND_DATA_MESSAGE || primitive == Primitive.SEND_CONTROL_MESSAGE
                    || primitive == Primitive.FORWARD_MESSAGE || primitive == Primitive.TO_APPLICATION;
        }

        @Override
        public String toString() {
            String s = primitive.specName();
            if (timerId >= 0) {
                s += " " + timerId;
            }
            return detail.isEmpty() ? s : s + " (" + detail + ")";
        }
    }

    /**
     * An event that fired.
     *
     * @param event   its name
     * @param handled whether a transition of the configuration it fired in reacts to it
     */
    record Fired(String event, boolean handled) {
    }

    /**
     * Something that failed while the input was handled.
     *
     * @param line    the line of the action or composite event
     * @param message what failed
     */
    record Failure(int line, String message) {
    }

    /** Whether some event it fired was handled. */
    boolean handled() {
        for (Fired f : fired) {
            if (f.handled()) {
                return true;
            }
        }
        return false;
    }

    /** Whether some call sends a message or hands one to the application. */
    boolean emits() {
        for (Call c : calls) {
            if (c.emits()) {
                return true;
            }
        }
        return false;
    }
}
