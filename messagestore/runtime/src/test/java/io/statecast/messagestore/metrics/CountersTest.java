package io.statecast.messagestore.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.spec.Primitive;
import org.junit.jupiter.api.Test;

class CountersTest {

    @Test
    void shouldCountEachOutcomeAndEachExecutedPrimitive() {
        Counters c = new Counters();
        for (int i = 0; i < 5; i++) {
            c.action(Primitive.SEND_CONTROL_MESSAGE, ActionOutcome.EXECUTED);
        }
        c.action(Primitive.SET_TIMER, ActionOutcome.EXECUTED);
        c.action(Primitive.SET_TIMER, ActionOutcome.EXECUTED);
        for (ActionOutcome o : ActionOutcome.values()) {
            if (o != ActionOutcome.EXECUTED) {
                c.action(Primitive.SEND_CONTROL_MESSAGE, o);
                c.action(Primitive.FORWARD_MESSAGE, o);
            }
        }
        CountersSnapshot s = c.snapshot();
        assertEquals(7, s.actions(ActionOutcome.EXECUTED), "the executed calls of every primitive");
        assertEquals(5, s.executed(Primitive.SEND_CONTROL_MESSAGE), "only executed calls count per primitive");
        assertEquals(2, s.executed(Primitive.SET_TIMER));
        assertEquals(0, s.executed(Primitive.FORWARD_MESSAGE));
        for (ActionOutcome o : ActionOutcome.values()) {
            if (o != ActionOutcome.EXECUTED) {
                assertEquals(2, s.actions(o), o.name());
            }
        }
    }
}
