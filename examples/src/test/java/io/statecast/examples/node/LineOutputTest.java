package io.statecast.examples.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class LineOutputTest {

    @Test
    void shouldWriteOneLinePerCallInOrder() {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        LineOutput out = new LineOutput(sink, 16, "test-out");

        out.emit("READY 1 udp://127.0.0.1:1");
        out.emit("two\nlines\rhere");
        out.close(Duration.ofSeconds(5));

        assertEquals("READY 1 udp://127.0.0.1:1\ntwo lines here\n", sink.toString(StandardCharsets.UTF_8));
        assertFalse(out.emit("after close"));
    }

    /** A stream whose writes block until released: a reader that stopped reading. */
    private static final class StalledStream extends OutputStream {
        final CountDownLatch release = new CountDownLatch(1);
        final ByteArrayOutputStream written = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (written) {
                written.write(b, off, len);
            }
        }
    }

    @Test
    void shouldNeverBlockOnAStalledReaderAndAnnounceExactlyWhatItDropped() {
        StalledStream stream = new StalledStream();
        LineOutput out = new LineOutput(stream, 100, "test-out");

        // far more than the queue and the writer's buffer hold; none of these calls may block
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int i = 0; i < 100_000; i++) {
                out.emit("RECV 7 MULTICAST 200 " + i + " ok");
            }
        });
        long droppedRecv = out.dropped();
        assertTrue(droppedRecv > 0);
        stream.release.countDown();
        // the queue drains once the reader reads again; until then even this line may be dropped
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!out.emit("LAST")) {
            assertTrue(System.nanoTime() < deadline, "the queue never drained");
            LockSupport.parkNanos(1_000_000);
        }
        out.close(Duration.ofSeconds(10));

        List<String> lines;
        synchronized (stream.written) {
            lines = stream.written.toString(StandardCharsets.UTF_8).lines().toList();
        }
        assertEquals("LAST", lines.get(lines.size() - 1));
        assertEquals(100_000 - droppedRecv, lines.stream().filter(l -> l.startsWith("RECV")).count());
        List<String> lost = lines.stream().filter(l -> l.startsWith("LOST-LINES ")).toList();
        assertEquals("LOST-LINES " + out.dropped(), lost.get(lost.size() - 1), "the total, announced before the next line written");
    }
}
