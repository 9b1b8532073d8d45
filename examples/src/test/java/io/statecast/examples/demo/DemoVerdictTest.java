package io.statecast.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The verdict holds a service to what its spec promises, and to nothing else. */
class DemoVerdictTest {

    private static DemoService promising(String... promises) {
        return new DemoService("x", null, null, 9, "x", List.of(promises));
    }

    @Test
    void shouldFailOnlyThePromisesThatDidNotHold() {
        DemoService reliable = promising("every-message", "no-duplicates");
        assertTrue(DemoVerdict.of(reliable, 0, 0, 0).passed());
        DemoVerdict lost = DemoVerdict.of(reliable, 27, 0, 0);
        assertEquals(1, lost.broken().size(), lost.toString());
        assertTrue(lost.broken().get(0).contains("promises every message, 27 deliveries are missing"), lost.toString());
        assertEquals(2, DemoVerdict.of(reliable, 1, 1, 0).broken().size());
    }

    @Test
    void shouldLetAServiceThatPromisesNoDeliveryLoseMessagesButNotDuplicateThem() {
        DemoService dupElim = promising("no-duplicates");
        assertTrue(DemoVerdict.of(dupElim, 5_000, 0, 0).passed(), "dup-elim promises no reliability");
        DemoVerdict twice = DemoVerdict.of(dupElim, 0, 3, 0);
        assertFalse(twice.passed());
        assertTrue(twice.broken().get(0).contains("promises no duplicates, 3 deliveries were duplicates"), twice.toString());
    }

    @Test
    void shouldFailCorruptPayloadsWhateverTheServicePromisesButNotBestEffortLoss() {
        assertFalse(DemoVerdict.of(promising(), 0, 0, 1).passed());
        assertTrue(DemoVerdict.of(promising(), 100, 100, 0).passed());
        assertTrue(DemoVerdict.of(DemoService.none(), 100, 0, 0).passed());
    }
}
