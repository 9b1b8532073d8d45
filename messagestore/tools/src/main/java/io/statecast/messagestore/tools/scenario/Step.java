package io.statecast.messagestore.tools.scenario;

import java.util.List;
import java.util.Set;

/**
 * One step of a scenario: at most one input, then the checks.
 *
 * @param index      0-based position in the scenario
 * @param line       where it starts in the file
 * @param title      the author's note, or {@code null}
 * @param input      what happens
 * @param calls      the primitive calls the step must make, exactly and in order; {@code null}: not checked
 * @param ignore     primitives left out of the comparison (the scenario's, unless the step says otherwise)
 * @param state      the set of active atomic states after the step, or {@code null}
 * @param terminated whether the instance must have ended after the step, or {@code null}
 * @param timers     the timers that must be set after the step (ids or timer event names), or {@code null}
 */
public record Step(int index, int line, String title, Input input, List<ExpectedCall> calls, Set<String> ignore,
        Set<String> state, Boolean terminated, List<String> timers) {

    /** What a step does before its checks. */
    public sealed interface Input {
    }

    /** Messages arrive, in this order, at the same instant. */
    public record Receive(List<MessageInput> messages) implements Input {
        /** Copies the list. */
        public Receive {
            messages = List.copyOf(messages);
        }
    }

    /** The virtual clock moves on by {@code millis}; timers due meanwhile fire in order. */
    public record Advance(long millis) implements Input {
    }

    /**
     * The clock moves to when timer {@code timerId} is due, and it (and anything due before) fires;
     * {@code name} is the timer event that waits for it, or the number.
     */
    public record Fire(int timerId, String name) implements Input {
    }

    /** The node's topology changes (what later {@code updateNodeInfo} calls see). */
    public record Topology(NodeSetup node) implements Input {
    }

    /**
     * The service is deployed on the node: the scenario's instance is the node's own, created and
     * fired the spec's {@code <Start>} event (as the store does).
     */
    public record Deploy() implements Input {
    }

    /** Nothing happens; the step only checks. */
    public record Check() implements Input {
    }
}
