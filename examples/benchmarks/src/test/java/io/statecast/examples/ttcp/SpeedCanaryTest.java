package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class SpeedCanaryTest {

    @Test
    void shouldTimeItsWorkInThreadCpuTime() {
        SpeedCanary canary = new SpeedCanary();
        if (!ManagementFactory.getThreadMXBean().isCurrentThreadCpuTimeSupported()) {
            assertEquals(-1, canary.run(), "no thread CPU clock, no figure");
            return;
        }
        canary.warm();
        for (int i = 0; i < 5; i++) {
            long nanos = canary.run();
            // the work is a dependent chain of about 98,000 multiplications: never free, never a second
            assertTrue(nanos > 0 && nanos < 1_000_000_000L, "run " + i + ": " + nanos + " ns");
        }
    }
}
