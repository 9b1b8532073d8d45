package io.statecast.examples.ttcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kernel's UDP counters from {@code /proc/net/snmp} (Linux): datagrams the kernel dropped
 * before the overlay saw them — a full socket receive buffer ({@code RcvbufErrors}) above all.
 * The counters belong to the network namespace, so inside a testbed namespace they are the
 * node's own; on a shared host they include every other process's UDP traffic.
 */
final class KernelUdp {

    private static final Path SNMP = Path.of("/proc/net/snmp");
    private static final int MAX_BYTES = 64 * 1024;

    private KernelUdp() {
    }

    /** The {@code Udp:} counters by name, or an empty map where they cannot be read. */
    static Map<String, Long> read() {
        try (InputStream in = Files.newInputStream(SNMP)) {
            String text = new String(in.readNBytes(MAX_BYTES), StandardCharsets.US_ASCII);
            return parse(text);
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }

    /** Parses the two {@code Udp:} lines (names, then values) of a {@code /proc/net/snmp} text. */
    static Map<String, Long> parse(String text) {
        String names = null;
        for (String line : text.split("\n")) {
            if (!line.startsWith("Udp: ")) {
                continue;
            }
            if (names == null) {
                names = line;
                continue;
            }
            String[] n = names.substring(5).trim().split("\\s+");
            String[] v = line.substring(5).trim().split("\\s+");
            Map<String, Long> m = new LinkedHashMap<>();
            for (int i = 0; i < Math.min(n.length, v.length); i++) {
                try {
                    m.put(n[i], Long.parseLong(v[i]));
                } catch (NumberFormatException e) {
                    // not a counter; skip it
                }
            }
            return m;
        }
        return Map.of();
    }

    /** {@code after - before} for each counter present in both. */
    static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> d = new LinkedHashMap<>();
        after.forEach((k, v) -> {
            Long b = before.get(k);
            if (b != null) {
                d.put(k, v - b);
            }
        });
        return d;
    }
}
