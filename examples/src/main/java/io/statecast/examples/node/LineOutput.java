package io.statecast.examples.node;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node process's standard output: lines go through a bounded queue to one writer thread, so
 * no thread of the node (I/O, protocol, delivery, control) ever blocks on a reader that does not
 * keep up. When the queue is full a line is dropped and counted, and the writer announces the drops
 * with {@code LOST-LINES <total>} before the next line it writes. A reader that drains its end
 * therefore sees every line or learns exactly that it did not.
 *
 * <p>Lines are sanitised: carriage returns and newlines inside a line become spaces and a line is
 * cut at {@value #MAX_LINE_CHARS} characters, so one call is always one line.
 */
public final class LineOutput implements AutoCloseable {

    /** Lines waiting for the writer by default: a few seconds of RECV lines at a high rate. */
    public static final int DEFAULT_CAPACITY = 65_536;
    /** Longest line written; longer ones are cut. */
    public static final int MAX_LINE_CHARS = 1 << 20;

    /** Identity sentinel that ends the writer thread (never equal to an emitted line by reference). */
    private final String end = new String("END");
    private final BlockingQueue<String> queue;
    private final Writer out;
    private final Thread writer;
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;
    /** Writer thread only. */
    private long reported;
    /** Writer thread only: the stream failed (reader gone); lines are discarded from now on. */
    private boolean broken;

    /**
     * Starts the writer thread.
     *
     * @param stream     where lines go (the process's standard output); not closed by this class
     * @param capacity   lines waiting at most
     * @param threadName name of the writer thread
     */
    public LineOutput(OutputStream stream, int capacity, String threadName) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
        this.writer = new Thread(this::writeLoop, threadName);
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Queues one line; never blocks.
     *
     * @return false if the line was dropped (queue full, or output closed)
     */
    public boolean emit(String line) {
        if (closed || !queue.offer(sanitise(line))) {
            dropped.incrementAndGet();
            return false;
        }
        return true;
    }

    /** Lines dropped so far because the queue was full or the output closed. */
    public long dropped() {
        return dropped.get();
    }

    static String sanitise(String line) {
        String s = line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) : line;
        if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            s = s.replace('\n', ' ').replace('\r', ' ');
        }
        return s;
    }

    private void writeLoop() {
        try {
            while (true) {
                String line = queue.take();
                if (line == end) {
                    flush();
                    return;
                }
                long d = dropped.get();
                if (d != reported) {
                    reported = d;
                    write("LOST-LINES " + d);
                }
                write(line);
                if (queue.isEmpty()) {
                    flush();
                }
            }
        } catch (InterruptedException e) {
            flush();
        }
    }

    private void write(String line) {
        if (broken) {
            return;
        }
        try {
            out.write(line);
            out.write('\n');
        } catch (IOException e) {
            broken = true;
        }
    }

    private void flush() {
        if (broken) {
            return;
        }
        try {
            out.flush();
        } catch (IOException e) {
            broken = true;
        }
    }

    /**
     * Stops taking lines and waits up to {@code timeout} for the queued ones to be written; a
     * writer still blocked then (nobody reads the other end) is abandoned.
     */
    public void close(Duration timeout) {
        closed = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (queue.offer(end, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                writer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writer.interrupt();
    }

    /** {@link #close(Duration)} with two seconds. */
    @Override
    public void close() {
        close(Duration.ofSeconds(2));
    }
}
