package io.statecast.examples.ttcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's accumulated idle and steal time from {@code /proc/stat} (Linux), summed over its
 * CPUs. Steal is time the hypervisor ran something else while this virtual machine's CPUs had
 * work; idle is time they had none. On the testbed the same build took 120 µs of CPU per message
 * summed over the chain in one run and 174 in another, with nothing in the run compiling or
 * collecting: steal beside the process's CPU time says whether the host took the difference, and
 * idle whether a run that fell behind had the cores to itself and still did.
 */
final class MachineCpuTime {

    /** Milliseconds summed over the CPUs; -1 in a field that cannot be read. */
    record Times(long idleMillis, long stealMillis) {
        static final Times UNKNOWN = new Times(-1, -1);
    }

    private static final Path STAT = Path.of("/proc/stat");
    /** Only the first line is needed; the file grows with the CPUs and interrupts. */
    private static final int MAX_BYTES = 4 * 1024;
    /** {@code USER_HZ}: the unit of {@code /proc/stat}, 100 on every Linux architecture the JDK runs on. */
    private static final long TICKS_PER_SECOND = 100;
    /** Positions of idle, iowait and steal in the aggregate line's numbers. */
    private static final int IDLE = 3;
    private static final int IOWAIT = 4;
    private static final int STEAL = 7;

    private MachineCpuTime() {
    }

    /** The machine's times now, or {@link Times#UNKNOWN} where {@code /proc/stat} cannot be read. */
    static Times read() {
        try (InputStream in = Files.newInputStream(STAT)) {
            return parse(new String(in.readNBytes(MAX_BYTES), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return Times.UNKNOWN;
        }
    }

    /**
     * Idle (with I/O wait, also time with nothing to run) and steal of the aggregate {@code cpu}
     * line, in milliseconds; -1 for a field the text lacks or that is not a number.
     */
    static Times parse(String text) {
        int end = text.indexOf('\n');
        String line = end < 0 ? text : text.substring(0, end);
        if (!line.startsWith("cpu ")) {
            return Times.UNKNOWN;
        }
        String[] f = line.substring(4).trim().split("\\s+");
        long idle = millis(f, IDLE);
        long iowait = millis(f, IOWAIT);
        return new Times(idle < 0 || iowait < 0 ? -1 : idle + iowait, millis(f, STEAL));
    }

    private static long millis(String[] fields, int index) {
        if (fields.length <= index) {
            return -1;
        }
        try {
            long ticks = Long.parseLong(fields[index]);
            return ticks < 0 ? -1 : ticks * 1_000 / TICKS_PER_SECOND;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
