package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InboxTest {

    private static final long DEADLINE_S = 10;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static OverlayMessage message(int n) {
        return new OverlayMessage(DeliveryMode.UNICAST, 8, new TreeAddress(1), new TreeAddress(2), new TreeAddress(1),
                null, List.of(new PayloadExtension(new byte[] {(byte) n})));
    }

    /** Waits until {@code taker} is parked in the inbox (its state says so), with a deadline. */
    private static void awaitWaiting(Thread taker) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
        while (taker.getState() != Thread.State.WAITING && taker.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > end) {
                throw new AssertionError("the taker never waited: " + taker.getState());
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldKeepOrderAndRefuseBeyondCapacity() throws Exception {
        Inbox inbox = new Inbox(3);
        OverlayMessage a = message(1);
        OverlayMessage b = message(2);
        OverlayMessage c = message(3);
        assertTrue(inbox.offer(a, true));
        assertTrue(inbox.offer(b, false));
        assertTrue(inbox.offer(c, true));
        assertFalse(inbox.offer(message(4), true), "full at 3");
        assertFalse(inbox.hasRoom());
        assertEquals(3, inbox.size());
        assertSame(a, inbox.poll(0, TimeUnit.SECONDS));
        assertSame(b, inbox.poll(0, TimeUnit.SECONDS), "a quiet add is there for a taker that does not wait");
        assertSame(c, inbox.poll(0, TimeUnit.SECONDS));
        assertNull(inbox.poll(0, TimeUnit.SECONDS));
        assertTrue(inbox.hasRoom());
    }

    @Test
    void shouldWakeAWaitingTakerAtOnceOrAtTheNextWakeUp() throws Exception {
        Inbox inbox = new Inbox(16);
        Thread[] taker = new Thread[1];
        CompletableFuture<OverlayMessage> got = new CompletableFuture<>();
        pool.submit(() -> {
            taker[0] = Thread.currentThread();
            try {
                got.complete(inbox.take());
            } catch (InterruptedException e) {
                got.completeExceptionally(e);
            }
        });
        while (taker[0] == null) {
            Thread.onSpinWait();
        }
        awaitWaiting(taker[0]);
        OverlayMessage quiet = message(1);
        assertTrue(inbox.offer(quiet, false));
        // the quiet add owes the waiting taker a wake-up, paid here
        inbox.wakeTakers();
        assertSame(quiet, got.get(DEADLINE_S, TimeUnit.SECONDS));

        CompletableFuture<OverlayMessage> second = new CompletableFuture<>();
        Future<?> f = pool.submit(() -> {
            taker[0] = Thread.currentThread();
            try {
                second.complete(inbox.poll(1, TimeUnit.HOURS));
            } catch (InterruptedException e) {
                second.completeExceptionally(e);
            }
        });
        awaitWaitingOn(taker, f);
        OverlayMessage loud = message(2);
        assertTrue(inbox.offer(loud, true));
        assertSame(loud, second.get(DEADLINE_S, TimeUnit.SECONDS), "an add that wakes needs no wakeTakers()");
    }

    private static void awaitWaitingOn(Thread[] taker, Future<?> f) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
        while (true) {
            Thread t = taker[0];
            if (t != null && t.getState() == Thread.State.TIMED_WAITING) {
                return;
            }
            if (System.nanoTime() > end || f.isDone()) {
                throw new AssertionError("the taker never waited");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldWakeTheTakersBeforeAProducerWaitsForRoomItFilledQuietly() throws Exception {
        Inbox inbox = new Inbox(2);
        List<OverlayMessage> taken = new ArrayList<>();
        Thread[] taker = new Thread[1];
        Future<?> consumer = pool.submit(() -> {
            taker[0] = Thread.currentThread();
            try {
                for (int i = 0; i < 3; i++) {
                    OverlayMessage m = inbox.take();
                    synchronized (taken) {
                        taken.add(m);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        while (taker[0] == null) {
            Thread.onSpinWait();
        }
        awaitWaiting(taker[0]);
        assertTrue(inbox.offer(message(1), false));
        assertTrue(inbox.offer(message(2), false));
        // full, and the taker was never woken: waiting for room must wake it, or both wait out the timeout
        assertTrue(inbox.offer(message(3), false, DEADLINE_S, TimeUnit.SECONDS), "room made by the woken taker");
        inbox.wakeTakers();
        consumer.get(DEADLINE_S, TimeUnit.SECONDS);
        synchronized (taken) {
            assertEquals(3, taken.size());
        }
    }

    @Test
    void shouldHandEveryMessageToSomeTakerOnceWithSeveralProducersAndTakers() throws Exception {
        Inbox inbox = new Inbox(64);
        int producers = 3;
        int perProducer = 20_000;
        int total = producers * perProducer;
        List<Future<Integer>> takers = new ArrayList<>();
        boolean[] seen = new boolean[total];
        for (int t = 0; t < 2; t++) {
            takers.add(pool.submit(() -> {
                int n = 0;
                OverlayMessage m;
                while ((m = inbox.poll(2, TimeUnit.SECONDS)) != null) {
                    int id = java.nio.ByteBuffer.wrap(m.payload()).getInt();
                    synchronized (seen) {
                        if (seen[id]) {
                            throw new AssertionError("message " + id + " taken twice");
                        }
                        seen[id] = true;
                    }
                    n++;
                }
                return n;
            }));
        }
        List<Future<?>> sends = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            boolean quiet = p != 0; // one producer wakes on every add, the others in batches
            sends.add(pool.submit(() -> {
                for (int i = 0; i < perProducer; i++) {
                    byte[] id = java.nio.ByteBuffer.allocate(4).putInt(base + i).array();
                    OverlayMessage m = new OverlayMessage(DeliveryMode.UNICAST, 8, new TreeAddress(1),
                            new TreeAddress(2), new TreeAddress(1), null, List.of(new PayloadExtension(id)));
                    if (!inbox.offer(m, !quiet, 1, TimeUnit.MINUTES)) {
                        throw new AssertionError("no room for a minute");
                    }
                    if (quiet && i % 16 == 15) {
                        inbox.wakeTakers();
                    }
                }
                inbox.wakeTakers();
                return null;
            }));
        }
        for (Future<?> s : sends) {
            s.get(DEADLINE_S * 6, TimeUnit.SECONDS);
        }
        int taken = 0;
        for (Future<Integer> t : takers) {
            try {
                taken += t.get(DEADLINE_S * 6, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("a taker hung", e);
            }
        }
        assertEquals(total, taken);
    }
}
