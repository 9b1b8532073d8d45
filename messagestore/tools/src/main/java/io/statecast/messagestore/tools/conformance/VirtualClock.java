package io.statecast.messagestore.tools.conformance;

import java.util.PriorityQueue;

/**
 * Timers on a virtual clock: a task runs when the clock is advanced past its time, so a test
 * that waits on a {@code <send delay="30s">} takes no real time. Single-threaded.
 */
final class VirtualClock {

    private record Task(long due, long seq, Runnable run) implements Comparable<Task> {
        @Override
        public int compareTo(Task o) {
            int c = Long.compare(due, o.due);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private long now;
    private long seq;

    long now() {
        return now;
    }

    Object schedule(long delayMillis, Runnable run) {
        Task t = new Task(now + delayMillis, seq++, run);
        tasks.add(t);
        return t;
    }

    void cancel(Object handle) {
        if (handle instanceof Task t) {
            tasks.remove(t);
        }
    }

    /** Advances to the next task's time and runs it; false when there is none due by {@code limit}. */
    boolean runNext(long limit) {
        Task t = tasks.peek();
        if (t == null || t.due > limit) {
            return false;
        }
        tasks.poll();
        now = Math.max(now, t.due);
        t.run.run();
        return true;
    }
}
