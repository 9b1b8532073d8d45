package io.statecast.examples.ttcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's accumulated steal time from {@code /proc/stat} (Linux): time the hypervisor ran
 * something else while this virtual machine's CPUs had work. On the testbed the same build took
 * 135 µs of CPU per message summed over the chain in one run and 178-190 in others, with nothing
 * in the run compiling or collecting; steal time beside the process's CPU time says whether the
 * host took the difference.
 */
final class StealTime {

    private static final Path STAT = Path.of("/proc/stat");
    /** Only the first line is needed; the file grows with the CPUs and interrupts. */
    private static final int MAX_BYTES = 4 * 1024;
    /** {@code USER_HZ}: the unit of {@code /proc/stat}, 100 on every Linux architecture the JDK runs on. */
    private static final long TICKS_PER_SECOND = 100;

    private StealTime() {
    }

    /** Steal time summed over the machine's CPUs, in milliseconds; -1 where it cannot be read. */
    static long readMillis() {
        try (InputStream in = Files.newInputStream(STAT)) {
            return parseMillis(new String(in.readNBytes(MAX_BYTES), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The steal field (the eighth number) of the aggregate {@code cpu} line, in milliseconds; -1
     * if the text has no such line or field.
     */
    static long parseMillis(String text) {
        int end = text.indexOf('\n');
        String line = end < 0 ? text : text.substring(0, end);
        if (!line.startsWith("cpu ")) {
            return -1;
        }
        String[] f = line.substring(4).trim().split("\\s+");
        if (f.length < 8) {
            return -1;
        }
        try {
            long ticks = Long.parseLong(f[7]);
            return ticks < 0 ? -1 : ticks * 1_000 / TICKS_PER_SECOND;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
