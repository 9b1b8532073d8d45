package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ContextSwitchesTest {

    @Test
    void shouldReadBothCountsOfAThreadsStatus() {
        String status = "Name:\tstatecast-udp\nState:\tS (sleeping)\nThreads:\t1\n"
                + "voluntary_ctxt_switches:\t152031\nnonvoluntary_ctxt_switches:\t877\n";
        assertEquals(new ContextSwitches.Counts(152_031, 877), ContextSwitches.parse(status));
    }

    @Test
    void shouldSayUnknownWhenACountIsMissingOrNotANumber() {
        assertEquals(ContextSwitches.Counts.UNKNOWN, ContextSwitches.parse(""));
        assertEquals(ContextSwitches.Counts.UNKNOWN, ContextSwitches.parse("voluntary_ctxt_switches:\t5\n"));
        assertEquals(ContextSwitches.Counts.UNKNOWN,
                ContextSwitches.parse("voluntary_ctxt_switches:\tx\nnonvoluntary_ctxt_switches:\t1\n"));
        assertEquals(ContextSwitches.Counts.UNKNOWN,
                ContextSwitches.parse("voluntary_ctxt_switches:\t-3\nnonvoluntary_ctxt_switches:\t1\n"));
    }

    @Test
    void aThreadThatSleepsShouldAddAVoluntarySwitchPerSleep() throws Exception {
        Path self = Path.of("/proc/thread-self/status");
        ContextSwitches.Counts before = ContextSwitches.readStatus(self);
        if (!Files.isReadable(self)) {
            assertEquals(ContextSwitches.Counts.UNKNOWN, before, "no /proc, no figure");
            assertEquals(ContextSwitches.Counts.UNKNOWN, new ContextSwitches().read());
            return;
        }
        for (int i = 0; i < 20; i++) {
            Thread.sleep(1); // each sleep blocks this thread in the kernel: one voluntary switch at least
        }
        ContextSwitches.Counts after = ContextSwitches.readStatus(self);
        assertTrue(after.voluntary() >= before.voluntary() + 20, before + " then " + after);
        ContextSwitches.Counts process = new ContextSwitches().read();
        assertTrue(process.voluntary() >= after.voluntary() && process.involuntary() >= after.involuntary(),
                "the process's sum includes this live thread: " + process + " against " + after);
    }

    @Test
    void aThreadThatEndsShouldLeaveItsCountsInTheSum() throws Exception {
        ContextSwitches meter = new ContextSwitches();
        if (!Files.isReadable(Path.of("/proc/self/task"))) {
            assertEquals(ContextSwitches.Counts.UNKNOWN, meter.read(), "no /proc, no figure");
            return;
        }
        CountDownLatch slept = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            try {
                for (int i = 0; i < 20; i++) {
                    Thread.sleep(1); // the switches whose counts must outlive the thread, not a wait for anything
                }
                slept.countDown();
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        slept.await();
        ContextSwitches.Counts first = meter.read();
        end.countDown();
        sleeper.join();
        ContextSwitches.Counts second = meter.read();
        // without the ended thread's 20 or more switches the sum would fall
        assertTrue(second.voluntary() >= first.voluntary() && second.involuntary() >= first.involuntary(),
                first + " then " + second);
    }
}
