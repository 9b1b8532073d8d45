package io.statecast.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One {@code statecast node} process: its standard output read line by line into a history that
 * tests wait on (with deadlines), its standard input for commands, its standard error in a file.
 * The child runs with {@code --control stdin}, so if this JVM dies the child sees the end of its
 * input and leaves on its own: no orphan even when {@link #close} never runs.
 */
final class NodeProcess implements AutoCloseable {

    /** Lines kept per process at most; a test that needs more is doing something else. */
    private static final int MAX_LINES = 2_000_000;
    private static final Duration TERMINATE_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path stderr;
    private final Writer stdin;
    private final Thread reader;
    private final List<String> lines = new ArrayList<>();
    /** Open unless the process was started with its output unread (to test that the node never blocks on it). */
    private final CountDownLatch readGate;
    private boolean endOfOutput;
    private boolean overflow;

    private NodeProcess(String name, Process process, Path stderr, boolean unread) {
        this.name = name;
        this.readGate = new CountDownLatch(unread ? 1 : 0);
        this.process = process;
        this.stderr = stderr;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.reader = new Thread(this::readLoop, "it-stdout-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code command}; standard error goes to {@code stderrFile}.
     *
     * @throws UncheckedIOException if the process cannot be started
     */
    static NodeProcess start(String name, List<String> command, Path stderrFile) {
        return start(name, command, stderrFile, false);
    }

    /**
     * Starts {@code command}; with {@code unread} nobody reads its standard output until
     * {@link #startReading}, so the pipe fills up as it would with a stalled reader.
     */
    static NodeProcess start(String name, List<String> command, Path stderrFile, boolean unread) {
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectError(stderrFile.toFile())
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        try {
            return new NodeProcess(name, pb.start(), stderrFile, unread);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    /** Starts reading standard output of a process started with its output unread. */
    void startReading() {
        readGate.countDown();
    }

    private void readLoop() {
        try {
            readGate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                synchronized (this) {
                    if (lines.size() < MAX_LINES) {
                        lines.add(line);
                    } else {
                        overflow = true;
                    }
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // the process is gone; end of output below
        } finally {
            synchronized (this) {
                endOfOutput = true;
                notifyAll();
            }
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * What the node printed first: its logical address and substrate addresses.
     *
     * @param address    the logical address token (a decimal id, or {@code x,y})
     * @param substrates the bound substrate addresses ({@code udp://127.0.0.1:40123})
     */
    record Ready(String address, List<String> substrates) {
        static Ready parse(String line) {
            String[] t = line.split(" ");
            return new Ready(t[1], List.of(t).subList(2, t.length));
        }

        /** The substrate address of {@code scheme} ({@code udp}, {@code tcp}). */
        String substrate(String scheme) {
            return substrates.stream().filter(s -> s.startsWith(scheme + "://")).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + scheme + " interface in " + substrates));
        }
    }

    /** Waits for the READY line (the node has opened its interfaces) and parses it. */
    Ready awaitReady(Duration timeout) {
        return Ready.parse(awaitPrefix(0, "READY", timeout));
    }

    /** The node's logical address from its READY line, which must have come. */
    String address() {
        return last("READY").map(l -> Ready.parse(l).address())
                .orElseThrow(() -> new AssertionError(name + " has not printed READY\n" + describe()));
    }

    /** The latest neighbours the node announced (empty before its first NEIGHBOURS line). */
    Set<String> neighbours() {
        return last("NEIGHBOURS").map(l -> {
            List<String> t = List.of(l.split(" "));
            return Set.copyOf(t.subList(2, t.size()));
        }).orElse(Set.of());
    }

    /** The latest state the node announced, or {@code null}. */
    String state() {
        return last("STATE").map(l -> l.substring("STATE ".length())).orElse(null);
    }

    /** Sends one command line. */
    void send(String command) {
        try {
            stdin.write(command);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + name + " (exited?): " + describe(), e);
        }
    }

    /** Closes the control input: the node leaves and exits 0. */
    void closeInput() {
        try {
            stdin.close();
        } catch (IOException e) {
            // already closed or the process is gone
        }
    }

    /** Lines received so far. */
    synchronized int lineCount() {
        return lines.size();
    }

    /** A copy of the lines received so far. */
    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** The last line starting with {@code prefix + " "} (or equal to it), if any. */
    synchronized Optional<String> last(String prefix) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (hasPrefix(lines.get(i), prefix)) {
                return Optional.of(lines.get(i));
            }
        }
        return Optional.empty();
    }

    /** Lines matching {@code p}. */
    synchronized List<String> matching(Predicate<String> p) {
        return lines.stream().filter(p).toList();
    }

    static boolean hasPrefix(String line, String prefix) {
        return line.equals(prefix) || line.startsWith(prefix + " ");
    }

    /**
     * Waits for the first line at index {@code from} or later that matches {@code p}.
     *
     * @throws AssertionError with this process's description if none came within {@code timeout}
     *                        or the output ended first
     */
    String awaitLine(int from, Predicate<String> p, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            int next = from;
            while (true) {
                for (; next < lines.size(); next++) {
                    if (p.test(lines.get(next))) {
                        return lines.get(next);
                    }
                }
                long left = deadline - System.nanoTime();
                if (endOfOutput || left <= 0) {
                    throw new AssertionError(name + ": " + (endOfOutput ? "output ended" : "no line after " + timeout)
                            + " while waiting for " + what + "\n" + describe());
                }
                try {
                    wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(name + ": interrupted while waiting for " + what, e);
                }
            }
        }
    }

    /** Waits for a line starting with {@code prefix} at index {@code from} or later. */
    String awaitPrefix(int from, String prefix, Duration timeout) {
        return awaitLine(from, l -> hasPrefix(l, prefix), timeout, "a " + prefix + " line");
    }

    /**
     * Sends {@code command} and waits for its reply, the first later line starting with
     * {@code replyPrefix} or {@code ERR}.
     *
     * @throws AssertionError if the reply is an ERR line or does not come within {@code timeout}
     */
    String request(String command, String replyPrefix, Duration timeout) {
        int mark = lineCount();
        send(command);
        String reply = awaitLine(mark, l -> hasPrefix(l, replyPrefix) || hasPrefix(l, "ERR"), timeout,
                "the reply to '" + command + "'");
        if (hasPrefix(reply, "ERR")) {
            throw new AssertionError(name + ": '" + command + "' failed: " + reply + "\n" + describe());
        }
        return reply;
    }

    /**
     * Sends SIGKILL ({@code kill -9}): the process dies at once, saying nothing to anyone (no
     * Goodbye, no flush). Through the process handle, as {@link #terminate()}.
     */
    void kill() {
        process.toHandle().destroyForcibly();
    }

    /**
     * Sends SIGTERM. Through the process handle: {@link Process#destroy()} would also close our
     * end of the child's pipes and lose the lines it prints while it shuts down.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    /**
     * Waits for the process to exit.
     *
     * @return its exit status
     * @throws AssertionError if it did not exit within {@code timeout}
     */
    int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(name + " did not exit within " + timeout + "\n" + describe());
            }
            reader.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(name + ": interrupted while waiting for exit", e);
        }
        return process.exitValue();
    }

    /** The process's standard error so far. */
    String stderr() {
        try {
            return Files.exists(stderr) ? Files.readString(stderr, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + stderr + ": " + e + ")";
        }
    }

    /** Name, pid, status, the last lines of output and of standard error: for assertion messages. */
    String describe() {
        List<String> out;
        boolean over;
        synchronized (this) {
            out = List.copyOf(lines.subList(Math.max(0, lines.size() - 25), lines.size()));
            over = overflow;
        }
        String err = stderr();
        List<String> errLines = err.lines().toList();
        StringBuilder b = new StringBuilder("--- ").append(name).append(" pid ").append(pid()).append(' ')
                .append(process.isAlive() ? "alive" : "exited " + process.exitValue())
                .append(over ? " (output beyond " + MAX_LINES + " lines not kept)" : "").append('\n');
        b.append("  stdout (last ").append(out.size()).append(" lines):\n");
        out.forEach(l -> b.append("    ").append(l.length() > 300 ? l.substring(0, 300) + "…" : l).append('\n'));
        b.append("  stderr (last lines):\n");
        errLines.subList(Math.max(0, errLines.size() - 15), errLines.size()).forEach(l -> b.append("    ").append(l).append('\n'));
        return b.toString();
    }

    /** SIGTERM, then SIGKILL if it has not exited after a grace period; waits for it. Idempotent. */
    @Override
    public void close() {
        startReading();
        closeInput();
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(TERMINATE_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(TERMINATE_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
    }
}
