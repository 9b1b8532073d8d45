package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

    @Test
    void shouldDivideTheCpuBetweenTheFirstAndTheLastReadingByTheMessagesBetween() {
        long[] count = {0};
        AtomicInteger reads = new AtomicInteger();
        CpuMeter m = new CpuMeter(() -> {
            reads.incrementAndGet();
            return 7_000_000 + count[0] * 50_000; // 50 µs per message on top of what ran before
        });
        m.start(0);
        for (count[0] = 1; count[0] <= 2_500; count[0]++) {
            m.passed(count[0]);
        }
        count[0] = 2_500;
        m.last(2_500);

        assertEquals(50.0, m.microsPerMessage(), 1e-9);
        assertEquals(4, reads.get(), "read as it starts, at the 1,000th, the 2,000th and the last");
    }

    @Test
    void aLastMessageOnAReadingShouldNotBeReadTwice() {
        AtomicInteger reads = new AtomicInteger();
        CpuMeter m = new CpuMeter(() -> 1_000L * reads.incrementAndGet());
        for (int i = 1; i <= 2_000; i++) {
            m.passed(i);
        }
        m.last(2_000);

        assertEquals(2, reads.get(), "never started: first read at the 1,000th, then the 2,000th, which is the last");
        assertEquals(1.0 / 1_000, m.microsPerMessage(), 1e-12); // 1,000 ns over 1,000 messages
    }

    @Test
    void fewerThanTwoReadingsOrNoClockShouldGiveNaN() {
        CpuMeter one = new CpuMeter(() -> 5_000);
        one.passed(1);
        one.last(1);
        assertTrue(Double.isNaN(one.microsPerMessage()));

        CpuMeter none = new CpuMeter(() -> -1);
        for (int i = 1; i <= 3_000; i++) {
            none.passed(i);
        }
        none.last(3_000);
        assertTrue(Double.isNaN(none.microsPerMessage()));
        assertTrue(Double.isNaN(new CpuMeter(() -> 0).microsPerMessage()));
    }
}
