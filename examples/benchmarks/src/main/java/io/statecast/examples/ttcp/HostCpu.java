package io.statecast.examples.ttcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The processor model the machine reports ({@code /proc/cpuinfo}, Linux). A virtual machine can
 * be moved to another kind of host between two runs: on the testbed the same build took
 * 178–192 µs of CPU per message summed over the chain on one host and 114–115 on another, with
 * no steal time on either. So a report says which processor its figures came from.
 */
public final class HostCpu {

    private static final Path CPUINFO = Path.of("/proc/cpuinfo");
    /** The first processor's block is enough; the file grows with the CPUs. */
    private static final int MAX_BYTES = 16 * 1024;
    /** What {@link #model()} answers when the file is missing or has no model line. */
    public static final String UNKNOWN = "unknown";

    private HostCpu() {
    }

    /** The first processor's model name, or {@link #UNKNOWN}. */
    public static String model() {
        try (InputStream in = Files.newInputStream(CPUINFO)) {
            return parseModel(new String(in.readNBytes(MAX_BYTES), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** The value of the first {@code model name} line of {@code cpuinfo}, or {@link #UNKNOWN}. */
    static String parseModel(String cpuinfo) {
        for (String line : cpuinfo.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equals("model name")) {
                String model = line.substring(colon + 1).strip();
                return model.isEmpty() ? UNKNOWN : model;
            }
        }
        return UNKNOWN;
    }
}
