package io.statecast.messagestore.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.Primitive;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ActionQueueTest {

    private static ActionTemplate action(int line) {
        return new ActionTemplate(Primitive.TERMINATE, List.of(), line);
    }

    @Test
    void shouldLeaveAnOuterStepsActionsAloneWhenAStepNestsInsideIt() {
        ActionQueue q = new ActionQueue();
        int outer = q.mark();
        for (int line = 1; line <= 3; line++) {
            q.add(action(line));
        }
        List<Integer> ran = new ArrayList<>();
        for (int i = outer; i < q.size(); i++) {
            ran.add(q.get(i).line());
            if (i == outer) {
                // a step of another instance begins while the first action runs
                int inner = q.mark();
                assertEquals(3, inner);
                q.add(action(10));
                q.add(action(11));
                for (int j = inner; j < q.size(); j++) {
                    ran.add(q.get(j).line());
                }
                q.truncate(inner);
            }
        }
        q.truncate(outer);
        assertEquals(List.of(1, 10, 11, 2, 3), ran);
        assertEquals(0, q.size());
    }

    @Test
    void shouldGrowPastItsFirstArrayAndForgetTruncatedActions() {
        ActionQueue q = new ActionQueue();
        List<ActionTemplate> added = new ArrayList<>();
        for (int line = 0; line < 100; line++) {
            ActionTemplate a = action(line);
            added.add(a);
            q.add(a);
        }
        assertEquals(100, q.size());
        for (int i = 0; i < 100; i++) {
            assertSame(added.get(i), q.get(i));
        }
        q.truncate(40);
        assertEquals(40, q.mark());
        q.add(action(500));
        assertEquals(500, q.get(40).line());
        q.truncate(0);
        assertEquals(0, q.size());
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> q.get(-1));
        assertNull(q.get(41), "a truncated slot no longer holds its action");
    }

    @Test
    void shouldRefuseAMarkOutsideTheQueue() {
        ActionQueue q = new ActionQueue();
        q.add(action(1));
        assertThrows(IllegalArgumentException.class, () -> q.truncate(2));
        assertThrows(IllegalArgumentException.class, () -> q.truncate(-1));
        assertEquals(1, q.size());
    }
}
