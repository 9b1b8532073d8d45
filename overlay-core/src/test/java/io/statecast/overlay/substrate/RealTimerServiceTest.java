package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RealTimerServiceTest {

    private final RealTimerService timers = new RealTimerService("test-timer");

    @AfterEach
    void close() {
        timers.close();
    }

    @Test
    void shouldRunTasksOneAtATimeOnItsOwnThreadInSubmissionOrder() {
        List<Integer> order = new CopyOnWriteArrayList<>();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        for (int i = 0; i < 1000; i++) {
            int n = i;
            timers.execute(() -> {
                if (running.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
                threads.add(Thread.currentThread().getName());
                order.add(n);
                running.decrementAndGet();
            });
        }

        assertTrue(Await.until(() -> order.size() == 1000, Duration.ofSeconds(10)));
        assertEquals(Set.of("test-timer"), threads);
        assertEquals(0, overlaps.get());
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, order.get(i));
        }
    }

    @Test
    void shouldRunADelayedTaskNoEarlierThanItsDelay() {
        long start = timers.nanoTime();
        long[] ranAt = new long[1];
        CountDownLatch done = new CountDownLatch(1);
        timers.schedule(20, TimeUnit.MILLISECONDS, () -> {
            ranAt[0] = timers.nanoTime();
            done.countDown();
        });

        assertTrue(Await.until(() -> done.getCount() == 0, Duration.ofSeconds(10)));
        assertTrue(ranAt[0] - start >= TimeUnit.MILLISECONDS.toNanos(20), "ran after " + (ranAt[0] - start) + " ns");
    }

    @Test
    void shouldKeepRunningAfterATaskThrows() {
        AtomicInteger after = new AtomicInteger();
        timers.execute(() -> {
            throw new IllegalStateException("on purpose");
        });
        timers.execute(after::incrementAndGet);

        assertTrue(Await.until(() -> after.get() == 1, Duration.ofSeconds(10)));
        assertEquals(1, timers.taskFailures());
    }

    @Test
    void shouldNotRunACancelledTaskAndRemoveItFromTheQueue() {
        AtomicInteger ran = new AtomicInteger();
        TimerService.Timer t = timers.schedule(1, TimeUnit.HOURS, ran::incrementAndGet);
        assertEquals(1, timers.pendingTasks());

        assertTrue(t.cancel());
        assertFalse(t.cancel());
        assertEquals(0, timers.pendingTasks());
        assertEquals(0, ran.get());
    }

    @Test
    void shouldDiscardTasksAfterCloseAndBeIdempotent() {
        timers.close();
        timers.close();
        AtomicInteger ran = new AtomicInteger();

        TimerService.Timer t = timers.schedule(0, TimeUnit.SECONDS, ran::incrementAndGet);
        timers.execute(ran::incrementAndGet);

        assertFalse(t.cancel());
        assertEquals(2, timers.rejectedTasks());
        assertEquals(0, ran.get());
    }
}
