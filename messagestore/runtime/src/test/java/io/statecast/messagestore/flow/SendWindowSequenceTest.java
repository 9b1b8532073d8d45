package io.statecast.messagestore.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.SendWindowException;
import io.statecast.overlay.socket.SendWindowStatistics;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The store's flow control on its own, fed generated sequences of what the store reports (own
 * messages accepted, completed, given back, timed out; instance room coming and going) and of
 * sends, checked step by step against a model of the rule: a send of a governed service is
 * admitted exactly while its own messages in flight plus the places reserved stay below the
 * window (the configured one, or AIMD's fed with the same counts) and the store has room for an
 * instance. With a virtual clock nothing waits, so every step is deterministic. Seeded; run again
 * with {@code -Dflow.seed=N}.
 */
class SendWindowSequenceTest {

    /** A service whose spec declares in-flight states. */
    private static final int WINDOWED = 7;
    /** One that declares none. */
    private static final int PLAIN = 8;
    private static final int MAX_INSTANCES = 100;

    private final long seed = Long.getLong("flow.seed", System.nanoTime());
    private final AtomicLong claimed = new AtomicLong();
    private final SendWindow window = new SendWindow(id -> id == WINDOWED, claimed::get, MAX_INSTANCES);

    private final Model m = new Model();
    /** With AIMD: a window fed the model's counts whenever the component should feed its own. */
    private AimdWindow mirror;

    /** What the store and the socket did so far, as the model sees it. */
    private static final class Model {
        int inFlight;
        int reserved;
        long timeouts;
        long completions;
    }

    @Test
    void aFixedWindowShouldAdmitExactlyWhileWindowAndInstanceRoomAllow() {
        SplittableRandom rnd = new SplittableRandom(seed);
        int size = 1 + rnd.nextInt(32);
        window.configure(new OverlayConfig.SendWindow(size, 10_000, false), new VirtualTimerService());
        long admitted = run(rnd, 20_000, size, null);
        assertTrue(admitted > 100, "the sequence admitted only " + admitted + " sends" + seedNote());
        SendWindowStatistics st = window.statistics();
        assertEquals(new SendWindowStatistics(0, 0, 0, 0, size), st, "a virtual clock never waits" + seedNote());
    }

    @Test
    void anAimdWindowShouldAdmitByTheWindowItsCountsMakeAndBackOffUnderCongestion() {
        SplittableRandom rnd = new SplittableRandom(seed);
        int size = 64 + rnd.nextInt(192);
        window.configure(new OverlayConfig.SendWindow(size, 10_000, true), new VirtualTimerService());
        int phase = 20_000;
        run(rnd, phase, size, new double[] {0.0});
        assertEquals(new SendWindowStatistics(0, 0, 0, 0, size), window.statistics(), "no congestion, no halving" + seedNote());
        run(rnd, phase, size, new double[] {0.6});
        SendWindowStatistics congested = window.statistics();
        assertTrue(congested.halvings() > 0 && congested.window() < size, "a congested phase did not back off: "
                + congested + ", configured " + size + seedNote());
        run(rnd, phase, size, new double[] {0.0});
        SendWindowStatistics after = window.statistics();
        assertEquals(congested.halvings(), after.halvings(), "no congestion, no more halvings" + seedNote());
        assertTrue(after.window() > congested.window(), "did not grow back after the congestion: " + congested.window()
                + " then " + after.window() + seedNote());
        assertEquals(0, after.waits(), seedNote());
    }

    /**
     * Runs {@code steps} generated events and checks every send against the model.
     *
     * @param congestion with AIMD: per phase of equal length, the share of completions preceded
     *                   by a repeated timeout; null: a fixed window
     * @return sends admitted
     */
    private long run(SplittableRandom rnd, int steps, int size, double[] congestion) {
        InFlightCounter count = window.counter(WINDOWED);
        long admitted = 0;
        for (int step = 0; step < steps; step++) {
            int at = step;
            Supplier<String> where = () -> "step " + at + seedNote();
            double congested = congestion == null ? 0 : congestion[step * congestion.length / steps];
            int op = rnd.nextInt(100);
            if (op < 30) {
                // a send: the socket asks before it hands the message to the store
                boolean room = claimed.get() < MAX_INSTANCES;
                int limit;
                if (congestion == null) {
                    limit = size;
                } else {
                    if (mirror == null) {
                        mirror = new AimdWindow(size, m.timeouts, m.completions);
                    }
                    limit = mirror.update(m.timeouts, m.completions, m.inFlight);
                }
                boolean expected = m.inFlight + m.reserved < limit && room;
                assertEquals(expected, window.acquire(WINDOWED), () -> "admitted " + m.inFlight + " in flight + "
                        + m.reserved + " reserved, window " + limit + ", room " + room + ", " + where.get());
                if (expected) {
                    admitted++;
                    m.reserved++;
                }
                assertFalse(window.acquire(PLAIN), "a service without in-flight states is never held; " + where.get());
            } else if (op < 55) {
                if (m.reserved > 0) {
                    if (rnd.nextInt(10) > 0) {
                        count.add(); // the store accepted the message: counted before the place is given back
                        m.inFlight++;
                    } // else refused (queue full): nothing counted
                    window.release(WINDOWED);
                    m.reserved--;
                }
            } else if (op < 72) {
                if (m.inFlight > 0) {
                    if (rnd.nextDouble() < congested) {
                        count.timedOut(); // its retransmission went unanswered too
                        m.timeouts++;
                    }
                    count.complete();
                    m.inFlight--;
                    m.completions++;
                }
            } else if (op < 75) {
                if (m.inFlight > 0) {
                    count.giveBack(); // accepted, but no instance took it
                    m.inFlight--;
                }
            } else if (op < 85) {
                if (congestion == null || rnd.nextDouble() < congested) {
                    count.timedOut();
                    m.timeouts++;
                }
            } else if (op < 88) {
                count.add(); // an instance entered the in-flight states again
                m.inFlight++;
            } else {
                claimed.set(rnd.nextInt(MAX_INSTANCES + MAX_INSTANCES / 10));
            }
            assertEquals(m.inFlight, window.inFlight(WINDOWED), where.get());
            assertEquals(m.timeouts, window.ownTimeouts(WINDOWED), where.get());
            assertEquals(m.completions, window.ownCompletions(WINDOWED), where.get());
            assertEquals(claimed.get() < MAX_INSTANCES, window.hasInstanceRoom(), where.get());
            assertEquals(0, window.inFlight(PLAIN), where.get());
            if (mirror != null) {
                SendWindowStatistics st = window.statistics();
                assertEquals(mirror.current(), st.window(), where.get());
                assertEquals(mirror.halvings(), st.halvings(), where.get());
                assertTrue(st.window() >= Math.min(size, OverlayConfig.SendWindow.MIN_AIMD_WINDOW) && st.window() <= size,
                        () -> "window " + window.statistics().window() + " outside its bounds; " + where.get());
            }
        }
        return admitted;
    }

    @Test
    void shouldGovernOnlyOnceASocketTurnedItOn() {
        assertFalse(window.governs(WINDOWED), "off until configured");
        assertFalse(window.acquire(WINDOWED));
        window.counter(WINDOWED).add();
        assertEquals(1, window.inFlight(WINDOWED), "the counts are kept regardless");
        assertTrue(window.counts(WINDOWED));
        assertFalse(window.counts(PLAIN));
        window.configure(new OverlayConfig.SendWindow(0, 1_000, true), new VirtualTimerService());
        assertFalse(window.governs(WINDOWED), "window 0 is off");
        window.configure(OverlayConfig.SendWindow.defaults(), new VirtualTimerService());
        assertTrue(window.governs(WINDOWED));
        assertFalse(window.governs(PLAIN));
    }

    @Test
    void aFullWindowShouldHoldASenderUntilAMessageCompletes() throws Exception {
        try (RealTimerService timers = new RealTimerService("flow-test-timer")) {
            window.configure(new OverlayConfig.SendWindow(2, 60_000, false), timers);
            fill(2);
            CompletableFuture<Boolean> sender = CompletableFuture.supplyAsync(() -> window.acquire(WINDOWED));
            Await.until(() -> window.statistics().waits() == 1, 10, () -> "the sender never waited");
            assertFalse(sender.isDone(), "admitted while the window was full");
            window.counter(WINDOWED).complete();
            assertTrue(sender.get(10, TimeUnit.SECONDS), "admitted once a message completed");
            window.release(WINDOWED);
            assertEquals(0, window.statistics().failures());
        }
    }

    @Test
    void aFullWindowShouldGiveUpAtItsDeadlineOrWhenInterrupted() {
        try (RealTimerService timers = new RealTimerService("flow-test-timer")) {
            window.configure(new OverlayConfig.SendWindow(2, 50, false), timers);
            fill(2);
            claimed.set(MAX_INSTANCES);
            SendWindowException e = assertThrows(SendWindowException.class, () -> window.acquire(WINDOWED));
            assertEquals(WINDOWED, e.serviceId());
            assertEquals(2, e.window());
            assertEquals(2, e.inFlight());
            assertFalse(e.interrupted());
            assertTrue(e.waitedMs() >= 50, e.getMessage());
            assertTrue(e.getMessage().contains("live-instance limit"), e.getMessage());
            Thread.currentThread().interrupt();
            try {
                SendWindowException i = assertThrows(SendWindowException.class, () -> window.acquire(WINDOWED));
                assertTrue(i.interrupted(), i.getMessage());
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt flag is set again");
            } finally {
                Thread.interrupted();
            }
            assertEquals(2, window.statistics().failures());
            assertEquals(2, window.statistics().waits());
        }
    }

    /** Sends {@code n} messages that stay in flight. */
    private void fill(int n) {
        for (int i = 0; i < n; i++) {
            assertTrue(window.acquire(WINDOWED));
            window.counter(WINDOWED).add();
            window.release(WINDOWED);
        }
    }

    private String seedNote() {
        return "; seed " + seed + " (-Dflow.seed=" + seed + ")";
    }
}
