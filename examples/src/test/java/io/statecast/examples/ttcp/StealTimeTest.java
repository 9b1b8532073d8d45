package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StealTimeTest {

    @Test
    void shouldReadTheStealFieldOfTheAggregateLineInMilliseconds() {
        String stat = "cpu  2603112 0 1138753 5012677 4493 0 286879 16142 0 0\n"
                + "cpu0 1301556 0 569376 2506338 2246 0 143439 9000 0 0\n";
        assertEquals(161_420, StealTime.parseMillis(stat));
        assertEquals(0, StealTime.parseMillis("cpu  1 2 3 4 5 6 7 0"));
    }

    @Test
    void shouldSayMinusOneForTextWithoutTheField() {
        assertEquals(-1, StealTime.parseMillis(""));
        assertEquals(-1, StealTime.parseMillis("cpu0 1 2 3 4 5 6 7 8\n"), "a single CPU's line is not the machine's");
        assertEquals(-1, StealTime.parseMillis("cpu  1 2 3 4 5 6 7\n"), "a kernel without steal accounting");
        assertEquals(-1, StealTime.parseMillis("cpu  1 2 3 4 5 6 7 x\n"));
        assertEquals(-1, StealTime.parseMillis("cpu  1 2 3 4 5 6 7 -5\n"));
    }

    @Test
    void theLiveReadingShouldNeverRunBackwards() {
        long first = StealTime.readMillis();
        long second = StealTime.readMillis();
        if (Files.isReadable(Path.of("/proc/stat"))) {
            assertTrue(first >= 0 && second >= first, first + " then " + second);
        } else {
            assertEquals(-1, first, "no /proc/stat, no figure");
        }
    }
}
