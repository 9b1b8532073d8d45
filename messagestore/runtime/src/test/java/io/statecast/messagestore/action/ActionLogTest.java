package io.statecast.messagestore.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.statecast.messagestore.spec.Primitive;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ActionLogTest {

    @Test
    void shouldKeepTheSameRecordsAsABoundedDequeOverRandomSequences() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        Primitive[] primitives = Primitive.values();
        ActionOutcome[] outcomes = ActionOutcome.values();
        for (int round = 0; round < 300; round++) {
            int capacity = 1 + random.nextInt(40);
            // an expected length below, at or beyond the capacity, or none (the first allocation's size)
            int expectedLength = random.nextInt(60) - 5;
            ActionLog log = random.nextInt(4) == 0 ? new ActionLog(capacity) : new ActionLog(capacity, expectedLength);
            ArrayDeque<ActionRecord> expected = new ArrayDeque<>();
            int n = random.nextInt(120);
            for (int i = 0; i < n; i++) {
                ActionRecord r = new ActionRecord(primitives[random.nextInt(primitives.length)],
                        random.nextInt(4) == 0 ? -random.nextInt(5) : random.nextInt(1 << 24),
                        random.nextLong(), outcomes[random.nextInt(outcomes.length)],
                        random.nextInt(5) == 0 ? "detail " + i : "");
                if (expected.size() == capacity) {
                    expected.pollFirst();
                }
                expected.addLast(r);
                log.add(r.primitive(), r.line(), r.timeMillis(), r.outcome(), r.detail());
                assertEquals(expected.size(), log.size(), "seed " + seed);
                if (random.nextInt(8) == 0) {
                    assertEquals(List.copyOf(expected), log.records(), "seed " + seed + ", round " + round
                            + ", expected length " + expectedLength);
                }
            }
            assertEquals(List.copyOf(expected), log.records(), "seed " + seed + ", round " + round);
        }
    }

    @Test
    void shouldBeEmptyAtFirstAndRefuseANonPositiveCapacity() {
        assertEquals(List.of(), new ActionLog(3).records());
        assertThrows(IllegalArgumentException.class, () -> new ActionLog(0));
    }
}
