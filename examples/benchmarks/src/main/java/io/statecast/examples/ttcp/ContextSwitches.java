package io.statecast.examples.ttcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The process's context switches ({@code /proc/self/task/}*{@code /status}, Linux). On the testbed
 * the same build took 114 µs of CPU per message summed over the chain in one run and 174 in
 * another, with nothing compiling, collecting or stolen; a thread that is woken for every message
 * instead of for a batch pays a switch each time, and a thread preempted for another process
 * pays one too, so switches per message beside CPU per message tell the runs apart.
 *
 * <p>A thread that ends takes its counts with it (the JIT's threads come and go), so each reading
 * keeps what it last saw of every thread and adds the last counts of threads gone since to the
 * sum: the sum never falls, and misses only what ended threads did after the previous reading.
 * Confined to one thread.
 */
final class ContextSwitches {

    /** Counts of one thread or summed over the process; -1 in both where nothing could be read. */
    record Counts(long voluntary, long involuntary) {
        static final Counts UNKNOWN = new Counts(-1, -1);
    }

    private static final Path TASKS = Path.of("/proc/self/task");
    /** A status file is about 1.5 KiB; the switch counts are its last lines. */
    private static final int MAX_STATUS_BYTES = 16 * 1024;
    /** Threads read at most: a process with more gets no figure rather than a slow sample. */
    private static final int MAX_THREADS = 4_096;

    /** Each live thread's counts at the last reading, by thread id. */
    private Map<String, Counts> lastSeen = new HashMap<>();
    private long endedVoluntary;
    private long endedInvoluntary;

    /**
     * This process's switches: those of its live threads plus the last seen of threads that have
     * ended, or {@link Counts#UNKNOWN}.
     */
    Counts read() {
        Map<String, Counts> seen = new HashMap<>();
        long voluntary = 0;
        long involuntary = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                if (seen.size() >= MAX_THREADS) {
                    return Counts.UNKNOWN; // a partial sum would count the unread threads as ended
                }
                Counts c = readStatus(task.resolve("status")); // unknown if the thread just ended
                if (c.voluntary() >= 0) {
                    seen.put(task.getFileName().toString(), c);
                    voluntary += c.voluntary();
                    involuntary += c.involuntary();
                }
            }
        } catch (IOException | RuntimeException e) {
            return Counts.UNKNOWN;
        }
        if (seen.isEmpty()) {
            return Counts.UNKNOWN;
        }
        for (Map.Entry<String, Counts> e : lastSeen.entrySet()) {
            if (!seen.containsKey(e.getKey())) {
                endedVoluntary += e.getValue().voluntary();
                endedInvoluntary += e.getValue().involuntary();
            }
        }
        lastSeen = seen;
        return new Counts(voluntary + endedVoluntary, involuntary + endedInvoluntary);
    }

    /** The counts of the status file {@code status} ({@code /proc/thread-self/status}: the calling thread's). */
    static Counts readStatus(Path status) {
        try (InputStream in = Files.newInputStream(status)) {
            return parse(new String(in.readNBytes(MAX_STATUS_BYTES), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return Counts.UNKNOWN;
        }
    }

    /**
     * The {@code voluntary_ctxt_switches} and {@code nonvoluntary_ctxt_switches} of one thread's
     * status text, or {@link Counts#UNKNOWN} if either is missing or not a number.
     */
    static Counts parse(String status) {
        long voluntary = -1;
        long involuntary = -1;
        for (String line : status.split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String key = line.substring(0, colon);
            if (key.equals("voluntary_ctxt_switches")) {
                voluntary = number(line.substring(colon + 1));
            } else if (key.equals("nonvoluntary_ctxt_switches")) {
                involuntary = number(line.substring(colon + 1));
            }
        }
        return voluntary < 0 || involuntary < 0 ? Counts.UNKNOWN : new Counts(voluntary, involuntary);
    }

    private static long number(String text) {
        try {
            long n = Long.parseLong(text.strip());
            return n < 0 ? -1 : n;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
