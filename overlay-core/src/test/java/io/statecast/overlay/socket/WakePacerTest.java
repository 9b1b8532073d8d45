package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WakePacerTest {

    private static final long INTERVAL = 500_000;

    /** A clock the test moves, a deferrer that keeps what it is given, a wake-up that counts. */
    private static final class Rig {
        long now = 1_000_000_000L;
        final List<Runnable> tasks = new ArrayList<>();
        final List<Long> delays = new ArrayList<>();
        int wakes;
        final WakePacer pacer;

        Rig(long interval) {
            pacer = new WakePacer(interval, () -> now, (task, delay) -> {
                tasks.add(task);
                delays.add(delay);
            }, () -> wakes++);
        }

        void runDeferred() {
            List<Runnable> due = new ArrayList<>(tasks);
            tasks.clear();
            due.forEach(Runnable::run);
        }
    }

    @Test
    void theFirstRequestWakesAtOnce() {
        Rig r = new Rig(INTERVAL);
        r.pacer.request(false);
        assertEquals(1, r.wakes);
        assertTrue(r.tasks.isEmpty());
    }

    @Test
    void requestsWithinTheIntervalShareOneWakeUpWhenItEnds() {
        Rig r = new Rig(INTERVAL);
        r.pacer.request(false);
        for (int i = 1; i <= 4; i++) {
            r.now += 100_000;
            r.pacer.request(false);
        }
        assertEquals(1, r.wakes, "only the first request woke at once");
        assertEquals(List.of(INTERVAL - 100_000), r.delays, "one deferral, to the end of the interval");
        r.now += 100_000;
        r.runDeferred();
        assertEquals(2, r.wakes);
        // the deferred wake-up starts a new interval
        r.now += 100_000;
        r.pacer.request(false);
        assertEquals(2, r.wakes);
        assertEquals(List.of(INTERVAL - 100_000, INTERVAL - 100_000), r.delays);
    }

    @Test
    void aRequestAfterAQuietIntervalWakesAtOnce() {
        Rig r = new Rig(INTERVAL);
        r.pacer.request(false);
        r.now += INTERVAL;
        r.pacer.request(false);
        r.now += 3 * INTERVAL;
        r.pacer.request(false);
        assertEquals(3, r.wakes);
        assertTrue(r.tasks.isEmpty());
    }

    @Test
    void anUrgentRequestWakesAtOnceWithinTheInterval() {
        Rig r = new Rig(INTERVAL);
        r.pacer.request(false);
        r.now += 10_000;
        r.pacer.request(true);
        assertEquals(2, r.wakes);
        assertTrue(r.tasks.isEmpty());
    }

    @Test
    void aZeroIntervalWakesAtEveryRequest() {
        Rig r = new Rig(0);
        for (int i = 0; i < 5; i++) {
            r.pacer.request(false);
        }
        assertEquals(5, r.wakes);
        assertTrue(r.tasks.isEmpty());
    }

    @Test
    void aNegativeIntervalIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WakePacer(-1, System::nanoTime, (t, d) -> { }, () -> { }));
    }

    /** On a real scheduler and clock, a deferred wake-up comes: the pacer never leaves a request unserved. */
    @Test
    void everyRequestIsServedOnARealScheduler() throws InterruptedException {
        ScheduledExecutorService ses = Executors.newSingleThreadScheduledExecutor();
        try {
            AtomicInteger wakes = new AtomicInteger();
            CountDownLatch twoWakeUps = new CountDownLatch(2);
            WakePacer pacer = new WakePacer(TimeUnit.MILLISECONDS.toNanos(50), System::nanoTime,
                    (task, delay) -> ses.schedule(task, delay, TimeUnit.NANOSECONDS), () -> {
                        wakes.incrementAndGet();
                        twoWakeUps.countDown();
                    });
            pacer.request(false);
            pacer.request(false);
            pacer.request(false);
            assertTrue(twoWakeUps.await(10, TimeUnit.SECONDS), "the immediate and the deferred wake-up came");
            assertEquals(2, wakes.get(), "one wake-up at once, one for the two requests within the interval");
        } finally {
            ses.shutdownNow();
        }
    }
}
