package io.statecast.messagestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The shard's timing wheel against its contract, and against a priority queue. */
class TimerWheelTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A timer that records its firing (name and the wheel's time then) in a shared log. */
    private static final class Probe extends TimerWheel.Entry {
        final String name;
        final List<String> log;
        Runnable onExpiry = () -> { };

        Probe(String name, List<String> log) {
            this.name = name;
            this.log = log;
        }

        @Override
        protected void expire() {
            log.add(name);
            onExpiry.run();
        }
    }

    private final List<String> log = new ArrayList<>();

    private Probe probe(String name) {
        return new Probe(name, log);
    }

    @Test
    void shouldFireInDeadlineOrderAndNeverEarly() {
        TimerWheel w = new TimerWheel(MS, 0);
        w.schedule(probe("c"), 0, 30 * MS);
        w.schedule(probe("a"), 0, 10 * MS);
        w.schedule(probe("b"), 0, 20 * MS);
        w.advance(10 * MS - 1);
        assertEquals(List.of(), log, "nothing is due before 10 ms");
        w.advance(10 * MS);
        assertEquals(List.of("a"), log);
        w.advance(35 * MS);
        assertEquals(List.of("a", "b", "c"), log);
        assertEquals(0, w.size());
        assertEquals(Long.MAX_VALUE, w.nextDeadlineNanos(), "an empty wheel has no next deadline");
    }

    @Test
    void shouldRoundADeadlineUpToTheNextTick() {
        TimerWheel w = new TimerWheel(4 * MS, 0);
        w.schedule(probe("x"), MS, 5 * MS); // due at 6 ms: the tick starting at 8 ms
        assertEquals(8 * MS, w.nextDeadlineNanos());
        w.advance(8 * MS - 1);
        assertEquals(List.of(), log);
        w.advance(8 * MS);
        assertEquals(List.of("x"), log);
    }

    @Test
    void shouldFireTimersOfTheSameTickInTheOrderTheyWereSet() {
        TimerWheel w = new TimerWheel(MS, 0);
        for (int i = 0; i < 5; i++) {
            w.schedule(probe("t" + i), 0, 7 * MS);
        }
        w.advance(7 * MS);
        assertEquals(List.of("t0", "t1", "t2", "t3", "t4"), log);
    }

    @Test
    void shouldNotFireACancelledTimerAndCancelOnlyOnce() {
        TimerWheel w = new TimerWheel(MS, 0);
        Probe a = probe("a");
        Probe b = probe("b");
        w.schedule(a, 0, 5 * MS);
        w.schedule(b, 0, 5 * MS);
        assertTrue(a.cancel());
        assertFalse(a.cancel(), "a second cancel finds nothing to cancel");
        assertEquals(1, w.size());
        w.advance(10 * MS);
        assertEquals(List.of("b"), log);
        assertFalse(b.cancel(), "a fired timer cannot be cancelled");
        assertFalse(probe("never set").cancel());
    }

    @Test
    void shouldSkipATimerCancelledByAnExpiryOfTheSameTick() {
        TimerWheel w = new TimerWheel(MS, 0);
        Probe first = probe("first");
        Probe second = probe("second");
        first.onExpiry = () -> assertTrue(second.cancel(), "second is due but has not fired: cancellable");
        w.schedule(first, 0, 3 * MS);
        w.schedule(second, 0, 3 * MS);
        w.advance(3 * MS);
        assertEquals(List.of("first"), log);
        assertFalse(second.pending());
    }

    @Test
    void shouldFireTimersBeyondOneRevolutionOnlyWhenDue() {
        TimerWheel w = new TimerWheel(MS, 0);
        long revolution = TimerWheel.SLOTS * MS;
        w.schedule(probe("far"), 0, 2 * revolution + 5 * MS); // the same slot as "near"
        w.schedule(probe("near"), 0, 5 * MS);
        w.advance(5 * MS);
        assertEquals(List.of("near"), log);
        for (long t = 0; t < 2 * revolution + 4 * MS; t += 3 * MS) {
            w.advance(t);
        }
        assertEquals(List.of("near"), log, "passed over twice, not fired");
        w.advance(2 * revolution + 5 * MS);
        assertEquals(List.of("near", "far"), log);
    }

    /** Half a minute out, as a finished instance's linger timer: on the coarse wheel, then handed down. */
    @Test
    void shouldFireATimerManyRevolutionsOutOnTimeWhenAdvancedInSmallSteps() {
        TimerWheel w = new TimerWheel(MS, 0);
        w.schedule(probe("linger"), 0, 35_000 * MS);
        w.schedule(probe("same slot, fine wheel"), 0, (35_000 - 8 * TimerWheel.SLOTS) * MS);
        for (long t = 0; t < 35_000 * MS; t += 7 * MS) {
            w.advance(t);
        }
        assertEquals(List.of("same slot, fine wheel"), log);
        assertEquals(1, w.size());
        w.advance(35_000 * MS - 1);
        assertEquals(List.of("same slot, fine wheel"), log, "not early by a nanosecond");
        w.advance(35_000 * MS);
        assertEquals(List.of("same slot, fine wheel", "linger"), log);
        assertEquals(0, w.size());
    }

    @Test
    void shouldCancelATimerOnTheCoarseWheel() {
        TimerWheel w = new TimerWheel(MS, 0);
        Probe far = probe("far");
        w.schedule(far, 0, 10 * TimerWheel.SLOTS * MS);
        assertTrue(far.pending());
        assertTrue(far.cancel());
        assertFalse(far.pending());
        assertFalse(far.cancel(), "once only");
        assertEquals(0, w.size());
        w.advance(20 * TimerWheel.SLOTS * MS);
        assertEquals(List.of(), log);
        w.schedule(far, 20 * TimerWheel.SLOTS * MS, 5 * TimerWheel.SLOTS * MS); // re-usable
        w.advance(25 * TimerWheel.SLOTS * MS);
        assertEquals(List.of("far"), log);
    }

    /** Beyond the coarse wheel's turn: passed over once per turn, fired when due. */
    @Test
    void shouldFireATimerBeyondTheCoarseWheelWhenDue() {
        TimerWheel w = new TimerWheel(MS, 0);
        long revolution = TimerWheel.SLOTS * MS;
        long due = (TimerWheel.FAR_SLOTS + 3) * revolution + 17 * MS; // the coarse slot of revolution 3
        w.schedule(probe("very far"), 0, due);
        w.schedule(probe("revolution 3"), 0, 3 * revolution + 17 * MS);
        for (long t = 0; t < due; t += revolution / 3) {
            w.advance(t);
        }
        assertEquals(List.of("revolution 3"), log);
        w.advance(due);
        assertEquals(List.of("revolution 3", "very far"), log);
    }

    @Test
    void shouldNotWakeAnIdleOwnerForASlotHoldingOnlyLaterRevolutions() {
        TimerWheel w = new TimerWheel(MS, 0);
        long revolution = TimerWheel.SLOTS * MS;
        w.schedule(probe("far"), 0, 2 * revolution + 5 * MS);
        assertEquals(revolution, w.nextDeadlineNanos(), "nothing before the next revolution");
        w.schedule(probe("near"), 0, 9 * MS);
        assertEquals(9 * MS, w.nextDeadlineNanos(), "the slot at 5 ms is passed over");
    }

    @Test
    void shouldCatchUpInDeadlineOrderAfterALongPause() {
        TimerWheel w = new TimerWheel(MS, 0);
        long revolution = TimerWheel.SLOTS * MS;
        w.schedule(probe("3"), 0, 2 * revolution + MS);
        w.schedule(probe("2"), 0, revolution + 2 * MS);
        w.schedule(probe("1"), 0, 3 * MS);
        w.advance(5 * revolution); // one call, three revolutions late
        assertEquals(List.of("1", "2", "3"), log);
    }

    /** A late tick's expiry re-arming with delay 0 fires in the same advance, but a tick only once. */
    @Test
    void shouldFireATimerReArmedFromItsOwnExpiryInTheSameAdvanceWhenDue() {
        TimerWheel w = new TimerWheel(MS, 0);
        Probe p = probe("p");
        long[] now = {0};
        int[] left = {3};
        p.onExpiry = () -> {
            if (--left[0] > 0) {
                w.schedule(p, now[0], 0); // delay 0: the next tick the wheel processes
            }
        };
        w.schedule(p, 0, 2 * MS);
        now[0] = 10 * MS;
        w.advance(now[0]);
        assertEquals(List.of("p", "p"), log, "fired at its tick 2, re-armed for tick 10 (now), fired, re-armed "
                + "for tick 11: a zero-delay loop cannot spin within one advance");
        assertEquals(1, w.size());
        now[0] = 11 * MS;
        w.advance(now[0]);
        assertEquals(List.of("p", "p", "p"), log);
        assertEquals(0, w.size());
    }

    @Test
    void shouldKeepALaterReArmForALaterAdvance() {
        TimerWheel w = new TimerWheel(MS, 0);
        Probe p = probe("p");
        p.onExpiry = () -> {
            if (log.size() == 1) {
                w.schedule(p, 4 * MS, 4 * MS); // at 8 ms
            }
        };
        w.schedule(p, 0, 4 * MS);
        w.advance(5 * MS);
        assertEquals(1, log.size());
        assertEquals(8 * MS, w.nextDeadlineNanos());
        w.advance(8 * MS);
        assertEquals(2, log.size());
    }

    @Test
    void shouldRefuseToScheduleAPendingEntry() {
        TimerWheel w = new TimerWheel(MS, 0);
        Probe p = probe("p");
        w.schedule(p, 0, MS);
        assertThrows(IllegalStateException.class, () -> w.schedule(p, 0, MS));
    }

    @Test
    void shouldTreatAnOverflowingDelayAsNever() {
        TimerWheel w = new TimerWheel(MS, Long.MAX_VALUE / 2);
        w.schedule(probe("never"), Long.MAX_VALUE / 2, Long.MAX_VALUE);
        w.advance(Long.MAX_VALUE / 2 + 10 * TimerWheel.SLOTS * MS);
        assertEquals(List.of(), log);
        assertEquals(1, w.size());
    }

    @Test
    void shouldWorkWithNegativeClockValues() {
        TimerWheel w = new TimerWheel(MS, -10 * MS - 1);
        w.schedule(probe("x"), -10 * MS - 1, 5 * MS); // due at -5 ms - 1 ns: the tick at -5 ms
        w.advance(-5 * MS - 1);
        assertEquals(List.of(), log);
        w.advance(-5 * MS);
        assertEquals(List.of("x"), log);
    }

    /** The timers under test, driven by one script: the wheel, or the reference queue. */
    private interface Timers {
        void schedule(int id, long now, long delay);

        boolean cancel(int id);

        boolean pending(int id);

        /** Fires what is due; returns the ids fired, in order. */
        List<Integer> advance(long now);

        int size();
    }

    /**
     * Whether and how an expiry re-arms its timer: a function of the seed, the timer and its
     * firing count only, so both implementations take the same decisions in their own order.
     */
    private record ReArm(long seed, long tick) {
        long delay(int id, int firing) {
            Random r = new Random(seed * 31 + id * 1_000_003L + firing);
            return switch (r.nextInt(8)) {
                case 0 -> 0;
                case 1 -> r.nextInt((int) (3 * tick));
                case 2 -> r.nextInt(50) * MS;
                default -> -1; // not re-armed
            };
        }
    }

    private static final class WheelTimers implements Timers {
        final TimerWheel wheel;
        final List<Integer> fired = new ArrayList<>();
        final List<TimerWheel.Entry> entries = new ArrayList<>();
        final long[] now = new long[1];

        WheelTimers(int n, long tick, long start, ReArm reArm) {
            wheel = new TimerWheel(tick, start);
            for (int i = 0; i < n; i++) {
                int id = i;
                int[] firings = {0};
                entries.add(new TimerWheel.Entry() {
                    @Override
                    protected void expire() {
                        fired.add(id);
                        long d = reArm.delay(id, firings[0]++);
                        if (d >= 0) {
                            wheel.schedule(this, now[0], d);
                        }
                    }
                });
            }
        }

        @Override
        public void schedule(int id, long at, long delay) {
            wheel.schedule(entries.get(id), at, delay);
        }

        @Override
        public boolean cancel(int id) {
            return entries.get(id).cancel();
        }

        @Override
        public boolean pending(int id) {
            return entries.get(id).pending();
        }

        @Override
        public List<Integer> advance(long at) {
            fired.clear();
            now[0] = at;
            wheel.advance(at);
            return List.copyOf(fired);
        }

        @Override
        public int size() {
            return wheel.size();
        }
    }

    /** The contract spelled out with a priority queue of (deadline tick, order of setting). */
    private static final class ReferenceTimers implements Timers {
        record Set(long tick, long order, int id) {
        }

        final PriorityQueue<Set> queue = new PriorityQueue<>(Comparator.comparingLong(Set::tick)
                .thenComparingLong(Set::order));
        final Set[] current;
        final int[] firings;
        final long tick;
        final ReArm reArm;
        long cursor;
        long order;

        ReferenceTimers(int n, long tick, long start, ReArm reArm) {
            this.current = new Set[n];
            this.firings = new int[n];
            this.tick = tick;
            this.reArm = reArm;
            this.cursor = Math.floorDiv(start, tick);
        }

        @Override
        public void schedule(int id, long now, long delay) {
            long at = now + delay;
            Set s = new Set(Math.max(-Math.floorDiv(-at, tick), cursor), order++, id);
            current[id] = s;
            queue.add(s);
        }

        @Override
        public boolean cancel(int id) {
            Set s = current[id];
            current[id] = null;
            return s != null && queue.remove(s);
        }

        @Override
        public boolean pending(int id) {
            return current[id] != null;
        }

        @Override
        public List<Integer> advance(long now) {
            List<Integer> fired = new ArrayList<>();
            long target = Math.floorDiv(now, tick);
            while (!queue.isEmpty() && queue.peek().tick() <= target) {
                Set s = queue.poll();
                current[s.id()] = null;
                cursor = Math.max(cursor, s.tick() + 1);
                fired.add(s.id());
                long d = reArm.delay(s.id(), firings[s.id()]++);
                if (d >= 0) {
                    schedule(s.id(), now, d);
                }
            }
            cursor = Math.max(cursor, target + 1);
            return fired;
        }

        @Override
        public int size() {
            return queue.size();
        }
    }

    /**
     * Random schedules, cancels, re-arms from expiries and clock jumps (some beyond a revolution,
     * some beyond the coarse wheel's turn, some sub-tick delays), the wheel compared expiry by
     * expiry with the reference queue.
     */
    @Test
    void shouldMatchAPriorityQueueUnderRandomOperations() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random rnd = new Random(seed);
        long tick = (1 + rnd.nextInt(3)) * MS;
        long start = rnd.nextLong() / 4;
        int n = 300;
        ReArm reArm = new ReArm(seed, tick);
        Timers wheel = new WheelTimers(n, tick, start, reArm);
        Timers reference = new ReferenceTimers(n, tick, start, reArm);
        long now = start;
        long fired = 0;
        int steps = Math.max(1000, Integer.getInteger("statecast.fuzz.cases", 50_000) / 5);
        for (int step = 0; step < steps; step++) {
            int id = rnd.nextInt(n);
            String where = "step " + step + ", timer " + id + ", seed " + seed;
            switch (rnd.nextInt(5)) {
                case 0, 1 -> {
                    long delay = switch (rnd.nextInt(10)) {
                        case 0 -> 0;
                        case 1 -> (long) rnd.nextInt(3 * TimerWheel.SLOTS) * tick; // beyond a revolution
                        case 2 -> (long) rnd.nextInt(2 * TimerWheel.FAR_SLOTS * TimerWheel.SLOTS) * tick; // coarse wheel
                        case 3 -> rnd.nextInt((int) (5 * tick)); // sub-tick
                        default -> rnd.nextInt(200) * MS + rnd.nextInt(1000);
                    };
                    assertEquals(reference.pending(id), wheel.pending(id), "pending, " + where);
                    if (!reference.pending(id)) {
                        reference.schedule(id, now, delay);
                        wheel.schedule(id, now, delay);
                    }
                }
                case 2 -> assertEquals(reference.cancel(id), wheel.cancel(id), "cancel, " + where);
                default -> {
                    now += switch (rnd.nextInt(200)) {
                        case 0 -> (long) rnd.nextInt(TimerWheel.FAR_SLOTS * TimerWheel.SLOTS) * tick;
                        case 1, 2, 3, 4 -> (long) rnd.nextInt(3 * TimerWheel.SLOTS) * tick;
                        default -> rnd.nextInt((int) (20 * MS));
                    };
                    List<Integer> expected = reference.advance(now);
                    assertEquals(expected, wheel.advance(now), "expiries at " + now + ", " + where);
                    fired += expected.size();
                }
            }
            assertEquals(reference.size(), wheel.size(), "timers set, " + where);
            long next = ((WheelTimers) wheel).wheel.nextDeadlineNanos();
            long earliest = ((ReferenceTimers) reference).queue.isEmpty() ? Long.MAX_VALUE
                    : ((ReferenceTimers) reference).queue.peek().tick();
            assertTrue(earliest == Long.MAX_VALUE ? next == Long.MAX_VALUE : next <= earliest * tick
                    && next > now - tick, "next deadline " + next + " is a lower bound of " + earliest + " ticks, "
                    + where);
        }
        assertTrue(fired > steps / 10, "the script fires timers (" + fired + "), seed " + seed);
    }
}
