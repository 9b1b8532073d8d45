package io.statecast.examples.demo;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;

/**
 * The progress display: on a terminal one bar redrawn in place with a carriage return; otherwise
 * (a pipe, a file, a test) a plain line every {@code lineEveryMs}, so logs stay readable.
 */
final class Progress {

    private static final int WIDTH = 30;

    private final PrintWriter out;
    private final boolean terminal;
    private final long lineEveryNanos;
    private long lastLine;
    private boolean drawn;

    /**
     * @param out         where to draw
     * @param terminal    whether {@code out} is a terminal (redraw in place)
     * @param lineEveryMs period of plain lines when not a terminal
     */
    Progress(PrintWriter out, boolean terminal, long lineEveryMs) {
        this.out = Objects.requireNonNull(out, "out");
        this.terminal = terminal;
        this.lineEveryNanos = lineEveryMs * 1_000_000L;
        this.lastLine = System.nanoTime();
    }

    /**
     * Shows the state now.
     *
     * @param sent      messages sent so far
     * @param messages  messages to send
     * @param delivered deliveries so far (every receiver's distinct messages)
     * @param expected  deliveries expected (messages times receivers)
     * @param seconds   time since sending started
     */
    void update(long sent, long messages, long delivered, long expected, double seconds) {
        String text = line(sent, messages, delivered, expected, seconds);
        if (terminal) {
            out.print('\r' + text);
            out.flush();
            drawn = true;
        } else {
            long now = System.nanoTime();
            if (now - lastLine >= lineEveryNanos) {
                lastLine = now;
                out.println(text);
                out.flush();
            }
        }
    }

    /** Ends the display: the final state on its own line. */
    void finish(long sent, long messages, long delivered, long expected, double seconds) {
        String text = line(sent, messages, delivered, expected, seconds);
        out.println(terminal && drawn ? '\r' + text : text);
        out.flush();
    }

    /** One line: {@code [######----]  62%  sent 6,200/10,000  delivered 31,000/50,000  6.2 s}. */
    static String line(long sent, long messages, long delivered, long expected, double seconds) {
        double f = expected == 0 ? 1 : Math.min(1.0, (double) delivered / expected);
        int full = (int) Math.round(f * WIDTH);
        return String.format(Locale.ROOT, "[%s%s] %3d%%  sent %,d/%,d  delivered %,d/%,d  %.1f s", "#".repeat(full),
                "-".repeat(WIDTH - full), Math.round(f * 100), sent, messages, delivered, expected, seconds);
    }
}
