package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The CPU-time bound of {@link BoundedWorker#callCpuBounded}: time a task spends not running
 * (waiting for the CPU on a loaded machine, here blocked on a latch) does not count; CPU work does;
 * the wall-clock backstop ends a task that never finishes either way. The waits are deliberate
 * delays standing in for a machine that does not schedule the task, not waits for a condition.
 */
class BoundedWorkerTest {

    @BeforeEach
    void cpuClock() {
        // every JVM the project runs on (HotSpot on Linux, macOS, Windows) measures thread CPU time
        assertTrue(BoundedWorker.cpuClockAvailable(), "thread CPU time is not measurable on this JVM");
    }

    @Test
    void shouldNotCountTimeTheTaskSpendsWaiting() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (BoundedWorker worker = new BoundedWorker("test-wait", 1 << 20)) {
            Thread releaser = new Thread(() -> {
                try {
                    // longer than the CPU budget, far shorter than the backstop
                    release.await(300, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                release.countDown();
            });
            releaser.start();
            int r = worker.callCpuBounded(() -> {
                release.await();
                return 7;
            }, Duration.ofMillis(50), Duration.ofSeconds(60), "waiting task");
            assertEquals(7, r);
            assertEquals(0, worker.abandonedThreads());
            assertTrue(worker.cpuNanosUsed() < Duration.ofMillis(50).toNanos(), "cpu " + worker.cpuNanosUsed());
            releaser.join();
        }
    }

    @Test
    void shouldAbandonATaskThatBurnsMoreThanItsCpuBudget() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        try (BoundedWorker worker = new BoundedWorker("test-spin", 1 << 20)) {
            QueryTimeoutException e = assertThrows(QueryTimeoutException.class, () -> worker.callCpuBounded(() -> {
                long x = 0;
                while (!stop.get()) {
                    x++;
                }
                return x;
            }, Duration.ofMillis(50), Duration.ofSeconds(60), "spinning task"));
            assertEquals("spinning task used more than 50 ms of CPU time", e.getMessage());
            assertEquals(1, worker.abandonedThreads());
            assertEquals(3, worker.callCpuBounded(() -> 3, Duration.ofSeconds(5), Duration.ofSeconds(60), "next"),
                    "a fresh thread runs the next task");
        } finally {
            stop.set(true);
        }
    }

    @Test
    void shouldAbandonATaskThatOutlastsTheWallClockBackstop() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        try (BoundedWorker worker = new BoundedWorker("test-backstop", 1 << 20)) {
            QueryTimeoutException e = assertThrows(QueryTimeoutException.class, () -> worker.callCpuBounded(() -> {
                never.await();
                return 0;
            }, Duration.ofSeconds(5), Duration.ofMillis(100), "blocked task"));
            assertEquals("blocked task did not finish within 100 ms", e.getMessage());
            assertEquals(1, worker.abandonedThreads());
        } finally {
            never.countDown();
        }
    }
}
