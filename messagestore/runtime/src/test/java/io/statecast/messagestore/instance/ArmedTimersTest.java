package io.statecast.messagestore.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArmedTimersTest {

    private final List<Handle> cancelled = new ArrayList<>();

    private final class Handle implements ArmedTimer {
        private final int id;
        private final long generation;

        Handle(int id, long generation) {
            this.id = id;
            this.generation = generation;
        }

        @Override
        public int timerId() {
            return id;
        }

        @Override
        public long generation() {
            return generation;
        }

        @Override
        public boolean cancel() {
            cancelled.add(this);
            return true;
        }
    }

    @Test
    void shouldKeepOneSettingPerIdAndGrowPastItsFirstArrays() {
        ArmedTimers t = new ArmedTimers();
        assertEquals(-1, t.generation(3));
        List<Handle> handles = new ArrayList<>();
        for (int id = 1; id <= 9; id++) {
            Handle h = new Handle(id, 100 + id);
            handles.add(h);
            t.put(h);
        }
        assertEquals(9, t.size());
        Handle again = new Handle(4, 500);
        t.put(again);
        assertEquals(9, t.size(), "a second setting of an id replaces the first");
        assertEquals(500, t.generation(4));
        assertEquals(107, t.generation(7));
        assertEquals(Set.of(1, 2, 3, 4, 5, 6, 7, 8, 9), t.ids());
        assertTrue(cancelled.isEmpty(), "put does not cancel");

        assertSame(handles.get(0), t.remove(1));
        assertNull(t.remove(1));
        assertFalse(t.contains(1));
        assertEquals(109, t.generation(9), "the last entry moved into the freed slot keeps its setting");
        assertEquals(8, t.size());

        t.cancelAll();
        assertEquals(0, t.size());
        assertEquals(8, cancelled.size());
        assertTrue(cancelled.contains(again));
        assertFalse(cancelled.contains(handles.get(3)), "the replaced handle is the caller's to cancel");
        assertEquals(-1, t.generation(9));
    }

    @Test
    void shouldCancelAWrappedTimerThroughItsTask() {
        boolean[] cancelled = {false};
        ArmedTimer t = ArmedTimer.of(7, 42, () -> {
            cancelled[0] = true;
            return true;
        });
        assertEquals(7, t.timerId());
        assertEquals(42, t.generation());
        assertTrue(t.cancel());
        assertTrue(cancelled[0]);
    }
}
