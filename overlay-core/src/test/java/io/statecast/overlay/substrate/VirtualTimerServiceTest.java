package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class VirtualTimerServiceTest {

    private final VirtualTimerService timers = new VirtualTimerService();
    private final List<String> log = new ArrayList<>();

    /** Schedules a task that holds a megabyte; {@code ref} gets a weak reference to it. */
    private TimerService.Timer scheduleHolding(List<WeakReference<byte[]>> ref) {
        byte[] big = new byte[1 << 20];
        ref.add(new WeakReference<>(big));
        return timers.schedule(60, TimeUnit.SECONDS, () -> assertEquals(1 << 20, big.length));
    }

    @Test
    void shouldNotKeepWhatACancelledTaskWouldHaveRun() {
        // a long timer cancelled early stays queued until its time: what it would have run (for
        // a store, an ended instance with its payload) must be free at once
        TimerService.Timer keepsQueueBusy = timers.schedule(1, TimeUnit.HOURS, () -> { });
        List<WeakReference<byte[]>> refs = new ArrayList<>();
        TimerService.Timer t = scheduleHolding(refs);
        WeakReference<byte[]> payload = refs.get(0);
        assertTrue(t.cancel());
        assertEquals(1, timers.pendingTasks(), "the cancelled one is not counted");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (payload.get() != null && System.nanoTime() < deadline) {
            System.gc();
        }
        assertTrue(payload.get() == null, "the cancelled task's runnable is still reachable");
        assertTrue(keepsQueueBusy.cancel());
    }

    @Test
    void shouldRunTasksInDueTimeOrderAndSeeTheirDueTimeAsNow() {
        timers.schedule(30, TimeUnit.MILLISECONDS, () -> log.add("c@" + timers.currentTimeMillis()));
        timers.schedule(10, TimeUnit.MILLISECONDS, () -> log.add("a@" + timers.currentTimeMillis()));
        timers.schedule(20, TimeUnit.MILLISECONDS, () -> log.add("b@" + timers.currentTimeMillis()));

        assertEquals(3, timers.advanceBy(Duration.ofMillis(30)));

        assertEquals(List.of("a@10", "b@20", "c@30"), log);
        assertEquals(30, timers.currentTimeMillis());
    }

    @Test
    void shouldRunTasksDueAtTheSameTimeInSubmissionOrder() {
        for (int i = 0; i < 100; i++) {
            int n = i;
            timers.schedule(5, TimeUnit.MILLISECONDS, () -> log.add("t" + n));
        }
        timers.execute(() -> log.add("now"));

        timers.advanceBy(Duration.ofMillis(5));

        assertEquals("now", log.get(0));
        for (int i = 0; i < 100; i++) {
            assertEquals("t" + i, log.get(i + 1));
        }
    }

    @Test
    void shouldRunNothingBeforeItIsDueAndMoveTheClockToTheTarget() {
        timers.schedule(10, TimeUnit.MILLISECONDS, () -> log.add("late"));

        assertEquals(0, timers.advanceBy(Duration.ofMillis(9)));
        assertTrue(log.isEmpty());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(9), timers.nanoTime());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(10), timers.nextDueNanos());

        assertEquals(1, timers.advanceBy(1, TimeUnit.MILLISECONDS));
        assertEquals(List.of("late"), log);
    }

    @Test
    void shouldRunTasksThatTasksScheduleWithinTheWindow() {
        timers.schedule(1, TimeUnit.MILLISECONDS, () -> {
            log.add("first");
            timers.schedule(1, TimeUnit.MILLISECONDS, () -> log.add("second@" + timers.currentTimeMillis()));
            timers.execute(() -> log.add("immediate@" + timers.currentTimeMillis()));
        });

        timers.advanceBy(Duration.ofMillis(2));

        assertEquals(List.of("first", "immediate@1", "second@2"), log);
    }

    @Test
    void shouldNotRunACancelledTaskAndReportCancellationOnce() {
        TimerService.Timer t = timers.schedule(1, TimeUnit.SECONDS, () -> log.add("cancelled"));
        timers.schedule(2, TimeUnit.SECONDS, () -> log.add("kept"));

        assertTrue(t.cancel());
        assertFalse(t.cancel());
        assertEquals(1, timers.pendingTasks());
        timers.advanceBy(Duration.ofSeconds(3));

        assertEquals(List.of("kept"), log);
    }

    @Test
    void shouldNotCancelATaskThatAlreadyRan() {
        TimerService.Timer t = timers.schedule(1, TimeUnit.SECONDS, () -> log.add("ran"));
        timers.advanceBy(Duration.ofSeconds(1));

        assertFalse(t.cancel());
        assertEquals(List.of("ran"), log);
    }

    @Test
    void shouldPurgeManyCancelledTasksWithoutLosingLiveOnes() {
        List<TimerService.Timer> handles = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            int n = i;
            handles.add(timers.schedule(i, TimeUnit.MILLISECONDS, () -> log.add("t" + n)));
        }
        for (int i = 0; i < 5000; i++) {
            if (i % 10 != 0) {
                assertTrue(handles.get(i).cancel());
            }
        }
        assertEquals(500, timers.pendingTasks());

        assertTrue(timers.runUntilIdle(10_000));

        assertEquals(500, log.size());
        for (int i = 0; i < 500; i++) {
            assertEquals("t" + (i * 10), log.get(i));
        }
    }

    @Test
    void runUntilShouldStopAsSoonAsTheConditionHolds() {
        AtomicInteger ticks = new AtomicInteger();
        for (int i = 1; i <= 10; i++) {
            timers.schedule(i, TimeUnit.SECONDS, ticks::incrementAndGet);
        }

        assertTrue(timers.runUntil(() -> ticks.get() == 4, Duration.ofMinutes(1)));

        assertEquals(4, ticks.get());
        assertEquals(4, timers.currentTimeMillis() / 1000);
        assertEquals(6, timers.pendingTasks());
    }

    @Test
    void runUntilShouldReturnFalseAtTheDeadlineWithoutRunningLaterTasks() {
        AtomicInteger ticks = new AtomicInteger();
        timers.schedule(1, TimeUnit.SECONDS, ticks::incrementAndGet);
        timers.schedule(10, TimeUnit.SECONDS, ticks::incrementAndGet);

        assertFalse(timers.runUntil(() -> ticks.get() == 2, Duration.ofSeconds(5)));

        assertEquals(1, ticks.get());
        assertEquals(TimeUnit.SECONDS.toNanos(5), timers.nanoTime());
        assertEquals(1, timers.pendingTasks());
    }

    @Test
    void runUntilShouldCheckTheConditionBeforeRunningAnything() {
        timers.schedule(1, TimeUnit.SECONDS, () -> log.add("x"));

        assertTrue(timers.runUntil(() -> true, Duration.ofSeconds(5)));

        assertTrue(log.isEmpty());
        assertEquals(0, timers.nanoTime());
    }

    @Test
    void runUntilIdleShouldStopASelfReschedulingTimerAtTheLimit() {
        Runnable[] again = new Runnable[1];
        again[0] = () -> timers.schedule(1, TimeUnit.SECONDS, again[0]);
        timers.execute(again[0]);

        assertFalse(timers.runUntilIdle(100));

        assertEquals(100, timers.tasksRun());
        assertEquals(99, timers.currentTimeMillis() / 1000);
    }

    @Test
    void shouldCountAFailingTaskAndGoOn() {
        timers.execute(() -> {
            throw new IllegalStateException("boom");
        });
        timers.execute(() -> log.add("after"));

        assertTrue(timers.runUntilIdle(10));

        assertEquals(List.of("after"), log);
        assertEquals(1, timers.taskFailures());
        assertEquals("boom", timers.lastFailure().getMessage());
    }

    @Test
    void shouldRefuseToBeAdvancedFromOneOfItsTasks() {
        timers.execute(() -> timers.advanceBy(Duration.ofSeconds(1)));

        timers.runUntilIdle(10);

        assertEquals(1, timers.taskFailures());
        assertTrue(timers.lastFailure() instanceof IllegalStateException);
    }

    @Test
    void shouldTreatNegativeDelaysAsZeroAndNeverMoveTimeBackwards() {
        timers.advanceBy(Duration.ofSeconds(10));
        timers.schedule(-5, TimeUnit.SECONDS, () -> log.add("now@" + timers.currentTimeMillis()));
        timers.advanceTo(0);

        assertEquals(List.of("now@10000"), log);
        assertEquals(TimeUnit.SECONDS.toNanos(10), timers.nanoTime());
    }

    @Test
    void shouldAcceptTasksFromOtherThreads() throws InterruptedException {
        AtomicInteger ran = new AtomicInteger();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    timers.schedule(i % 7, TimeUnit.MILLISECONDS, ran::incrementAndGet);
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }

        assertTrue(timers.runUntilIdle(10_000));
        assertEquals(4000, ran.get());
    }

    @Test
    void shouldRejectNullArguments() {
        assertThrows(NullPointerException.class, () -> timers.schedule(1, null, () -> { }));
        assertThrows(NullPointerException.class, () -> timers.execute(null));
    }
}
