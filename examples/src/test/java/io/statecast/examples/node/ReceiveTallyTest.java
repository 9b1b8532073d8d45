package io.statecast.examples.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ReceiveTallyTest {

    @Test
    void shouldTellFirstCopiesDuplicatesAndCorruptPayloadsApartPerSource() {
        ReceiveTally t = new ReceiveTally();

        assertEquals(ReceiveTally.Verdict.OK, t.record("1", 0));
        assertEquals(ReceiveTally.Verdict.OK, t.record("1", 1));
        assertEquals(ReceiveTally.Verdict.DUP, t.record("1", 0));
        assertEquals(ReceiveTally.Verdict.OK, t.record("2", 0));
        assertEquals(ReceiveTally.Verdict.BAD, t.record("2", -1));
        assertEquals(ReceiveTally.Verdict.OK, t.record("2", ReceiveTally.MAX_TRACKED_SEQ + 5));
        assertEquals(ReceiveTally.Verdict.OK, t.record("2", ReceiveTally.MAX_TRACKED_SEQ + 5), "beyond the tracked range");

        assertEquals(Map.of(
                "1", Map.of("messages", 3L, "distinct", 2L, "duplicates", 1L, "bad", 0L),
                "2", Map.of("messages", 4L, "distinct", 3L, "duplicates", 0L, "bad", 1L)), t.snapshot());
    }

    @Test
    void shouldCountSourcesBeyondTheBoundTogether() {
        ReceiveTally t = new ReceiveTally();
        for (int i = 0; i < ReceiveTally.MAX_SOURCES + 10; i++) {
            t.record(Integer.toString(i), 0);
        }

        Map<String, Map<String, Long>> s = t.snapshot();
        assertEquals(ReceiveTally.MAX_SOURCES + 1, s.size());
        assertEquals(10L, s.get(ReceiveTally.OTHER_SOURCES).get("messages"));
    }
}
