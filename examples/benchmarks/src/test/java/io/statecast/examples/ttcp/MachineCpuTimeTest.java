package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MachineCpuTimeTest {

    @Test
    void shouldReadIdleWithIoWaitAndStealOfTheAggregateLineInMilliseconds() {
        String stat = "cpu  2603112 0 1138753 5012677 4493 0 286879 16142 0 0\n"
                + "cpu0 1301556 0 569376 2506338 2246 0 143439 9000 0 0\n";
        assertEquals(new MachineCpuTime.Times(50_171_700, 161_420), MachineCpuTime.parse(stat));
        assertEquals(new MachineCpuTime.Times(90, 0), MachineCpuTime.parse("cpu  1 2 3 4 5 6 7 0"));
    }

    @Test
    void shouldSayMinusOneForAFieldTheTextLacks() {
        assertEquals(MachineCpuTime.Times.UNKNOWN, MachineCpuTime.parse(""));
        assertEquals(MachineCpuTime.Times.UNKNOWN, MachineCpuTime.parse("cpu0 1 2 3 4 5 6 7 8\n"),
                "a single CPU's line is not the machine's");
        assertEquals(new MachineCpuTime.Times(90, -1), MachineCpuTime.parse("cpu  1 2 3 4 5 6 7\n"),
                "a kernel without steal accounting");
        assertEquals(new MachineCpuTime.Times(90, -1), MachineCpuTime.parse("cpu  1 2 3 4 5 6 7 x\n"));
        assertEquals(new MachineCpuTime.Times(90, -1), MachineCpuTime.parse("cpu  1 2 3 4 5 6 7 -5\n"));
        assertEquals(new MachineCpuTime.Times(-1, -1), MachineCpuTime.parse("cpu  1 2 3 x\n"));
    }

    @Test
    void theLiveReadingShouldNeverRunBackwards() {
        MachineCpuTime.Times first = MachineCpuTime.read();
        MachineCpuTime.Times second = MachineCpuTime.read();
        if (Files.isReadable(Path.of("/proc/stat"))) {
            assertTrue(first.idleMillis() >= 0 && second.idleMillis() >= first.idleMillis(), first + " then " + second);
            assertTrue(first.stealMillis() >= 0 && second.stealMillis() >= first.stealMillis(), first + " then " + second);
        } else {
            assertEquals(MachineCpuTime.Times.UNKNOWN, first, "no /proc/stat, no figure");
        }
    }
}
