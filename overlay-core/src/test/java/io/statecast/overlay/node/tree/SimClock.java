package io.statecast.overlay.node.tree;

import io.statecast.overlay.substrate.TimerService;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A virtual clock for protocol tests: tasks run on the thread that advances it, in time order
 * (ties in submission order). A task that throws fails the test.
 */
final class SimClock implements TimerService {

    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private long now;
    private long seq;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public Timer schedule(long delay, TimeUnit unit, Runnable task) {
        Task t = new Task(now + Math.max(0, unit.toNanos(delay)), seq++, task);
        queue.add(t);
        return () -> queue.remove(t);
    }

    @Override
    public void execute(Runnable task) {
        schedule(0, TimeUnit.NANOSECONDS, task);
    }

    /** Runs every task due within {@code ms} from now, then sets the clock there. */
    void advanceMs(long ms) {
        long target = now + TimeUnit.MILLISECONDS.toNanos(ms);
        while (!queue.isEmpty() && queue.peek().due <= target) {
            Task t = queue.poll();
            now = t.due;
            t.task.run();
        }
        now = target;
    }

    /** Advances in steps of {@code stepMs} until {@code condition} holds; false if {@code withinMs} passes first. */
    boolean runUntil(BooleanSupplier condition, long withinMs, long stepMs) {
        long end = now + TimeUnit.MILLISECONDS.toNanos(withinMs);
        while (now < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            advanceMs(stepMs);
        }
        return condition.getAsBoolean();
    }

    long nowMs() {
        return TimeUnit.NANOSECONDS.toMillis(now);
    }

    private record Task(long due, long seq, Runnable task) implements Comparable<Task> {
        @Override
        public int compareTo(Task o) {
            return due != o.due ? Long.compare(due, o.due) : Long.compare(seq, o.seq);
        }
    }
}
