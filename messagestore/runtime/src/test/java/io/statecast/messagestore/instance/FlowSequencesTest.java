package io.statecast.messagestore.instance;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FlowSequencesTest {

    @Test
    void shouldCountEachFlowFromZeroAndForgetTheLeastRecentlyUsedBeyondTheBound() {
        FlowSequences s = new FlowSequences(2);
        assertEquals(0, s.next(a(1)));
        assertEquals(1, s.next(a(1)));
        assertEquals(0, s.next(a(2)));
        assertEquals(2, s.next(a(1)));
        assertEquals(0, s.next(a(3))); // a(2) was used least recently: forgotten
        assertEquals(2, s.flows());
        assertEquals(3, s.next(a(1)));
        assertEquals(0, s.next(a(2)));
    }
}
