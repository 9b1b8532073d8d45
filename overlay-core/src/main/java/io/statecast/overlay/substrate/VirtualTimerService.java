package io.statecast.overlay.substrate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A deterministic {@link TimerService} on a virtual clock, for tests and simulations. Nothing runs
 * by itself: the caller advances the clock ({@link #advanceBy}, {@link #runUntil},
 * {@link #runUntilIdle}) and due tasks run on the calling thread, one at a time, in due-time
 * order; tasks due at the same virtual time run in the order they were submitted (FIFO). While a
 * task runs, {@link #nanoTime()} reads its due time. Time only moves forward.
 *
 * <p>Tasks may be submitted from any thread (the queue is synchronized), but only one thread at a
 * time may run the clock, and a task may not run it re-entrantly. A task that throws is logged and
 * counted ({@link #taskFailures()}, {@link #lastFailure()}); the clock goes on, so a test should
 * assert {@code taskFailures() == 0}.
 */
public final class VirtualTimerService implements TimerService {

    private static final Logger LOG = LoggerFactory.getLogger(VirtualTimerService.class);
    /** Cancelled entries are purged from the queue once they are this many and half of it. */
    private static final int PURGE_THRESHOLD = 1024;

    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private volatile long now;
    private long sequence;
    private int cancelledInQueue;
    private boolean running;
    private long tasksRun;
    private long failures;
    private Throwable lastFailure;

    /** A clock starting at virtual time 0. */
    public VirtualTimerService() {
        this(0);
    }

    /** @param startNanos the virtual time the clock starts at */
    public VirtualTimerService(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public Timer schedule(long delay, TimeUnit unit, Runnable task) {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(task, "task");
        long nanos = Math.max(0, unit.toNanos(delay));
        synchronized (this) {
            long due = now + nanos;
            if (due < now) {
                due = Long.MAX_VALUE; // saturate: "never", in practice
            }
            Task t = new Task(due, sequence++, task);
            queue.add(t);
            return t;
        }
    }

    @Override
    public void execute(Runnable task) {
        schedule(0, TimeUnit.NANOSECONDS, task);
    }

    /**
     * Runs every task due within {@code amount} from now (including tasks those tasks schedule
     * within the window), then sets the clock to now + {@code amount}.
     *
     * @return the number of tasks run
     */
    public int advanceBy(long amount, TimeUnit unit) {
        long target = now + Math.max(0, unit.toNanos(amount));
        return advanceTo(target < now ? Long.MAX_VALUE : target);
    }

    /** {@link #advanceBy(long, TimeUnit)} with a {@link Duration}. */
    public int advanceBy(Duration amount) {
        return advanceBy(amount.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Runs every task due at or before {@code targetNanos}, then sets the clock there. A target in
     * the past counts as now: tasks due now run and the clock stays.
     *
     * @return the number of tasks run
     */
    public int advanceTo(long targetNanos) {
        enter();
        try {
            targetNanos = Math.max(targetNanos, now);
            int n = 0;
            Task t;
            while ((t = pollDue(targetNanos)) != null) {
                runTask(t);
                n++;
            }
            synchronized (this) {
                if (targetNanos > now) {
                    now = targetNanos;
                }
            }
            return n;
        } finally {
            exit();
        }
    }

    /**
     * Runs tasks, moving the clock to each one's due time, until none is left or
     * {@code maxTasks} have run (a guard against timers that reschedule themselves forever).
     *
     * @return true if the queue is empty; false if {@code maxTasks} ran and tasks remain
     */
    public boolean runUntilIdle(int maxTasks) {
        enter();
        try {
            for (int i = 0; i < maxTasks; i++) {
                Task t = pollDue(Long.MAX_VALUE);
                if (t == null) {
                    return true;
                }
                runTask(t);
            }
            return pendingTasks() == 0;
        } finally {
            exit();
        }
    }

    /**
     * Runs tasks in order until {@code condition} holds or the next task is due after
     * {@code deadlineNanos}. The condition is checked before the first task and after each one.
     * When it does not hold by then, the clock is moved to the deadline.
     *
     * @return whether the condition holds
     */
    public boolean runUntil(BooleanSupplier condition, long deadlineNanos) {
        Objects.requireNonNull(condition, "condition");
        enter();
        try {
            if (condition.getAsBoolean()) {
                return true;
            }
            Task t;
            while ((t = pollDue(deadlineNanos)) != null) {
                runTask(t);
                if (condition.getAsBoolean()) {
                    return true;
                }
            }
            synchronized (this) {
                if (deadlineNanos > now) {
                    now = deadlineNanos;
                }
            }
            return condition.getAsBoolean();
        } finally {
            exit();
        }
    }

    /** {@link #runUntil(BooleanSupplier, long)} with a deadline {@code within} from now. */
    public boolean runUntil(BooleanSupplier condition, Duration within) {
        long deadline = now + within.toNanos();
        return runUntil(condition, deadline < now ? Long.MAX_VALUE : deadline);
    }

    /**
     * Runs the next task, moving the clock to its due time.
     *
     * @return false if there was none
     */
    public boolean runNext() {
        enter();
        try {
            Task t = pollDue(Long.MAX_VALUE);
            if (t == null) {
                return false;
            }
            runTask(t);
            return true;
        } finally {
            exit();
        }
    }

    /** Tasks waiting, not counting cancelled ones. */
    public synchronized int pendingTasks() {
        return queue.size() - cancelledInQueue;
    }

    /** Due time of the next task that will run, or {@link Long#MAX_VALUE} when none waits. */
    public synchronized long nextDueNanos() {
        skipCancelledHead();
        Task t = queue.peek();
        return t == null ? Long.MAX_VALUE : t.due;
    }

    /** Tasks run so far. */
    public synchronized long tasksRun() {
        return tasksRun;
    }

    /** Tasks that threw so far. */
    public synchronized long taskFailures() {
        return failures;
    }

    /** The most recent exception a task threw, or {@code null}. */
    public synchronized Throwable lastFailure() {
        return lastFailure;
    }

    private synchronized void enter() {
        if (running) {
            throw new IllegalStateException("the virtual clock is already being advanced (re-entrant call from a task, or two threads)");
        }
        running = true;
    }

    private synchronized void exit() {
        running = false;
    }

    /** Removes and returns the next live task due at or before {@code limit}, moving the clock to it. */
    private synchronized Task pollDue(long limit) {
        skipCancelledHead();
        Task t = queue.peek();
        if (t == null || t.due > limit) {
            return null;
        }
        queue.poll();
        t.state = Task.RUNNING;
        if (t.due > now) {
            now = t.due;
        }
        return t;
    }

    private void skipCancelledHead() {
        Task t;
        while ((t = queue.peek()) != null && t.state == Task.CANCELLED) {
            queue.poll();
            cancelledInQueue--;
        }
    }

    private void runTask(Task t) {
        try {
            t.task.run();
        } catch (RuntimeException | LinkageError | AssertionError e) {
            synchronized (this) {
                failures++;
                lastFailure = e;
            }
            LOG.warn("virtual timer task {} failed at t={} ns", t.task, t.due, e);
        }
        synchronized (this) {
            tasksRun++;
            t.state = Task.DONE;
        }
    }

    private synchronized boolean cancel(Task t) {
        if (t.state != Task.PENDING) {
            return false;
        }
        t.state = Task.CANCELLED;
        // the queue may keep it until its time: it must not keep what it would have run (a
        // store's cancelled 60 s timer held its ended instance, payload and all)
        t.task = null;
        cancelledInQueue++;
        if (cancelledInQueue >= PURGE_THRESHOLD && cancelledInQueue * 2 >= queue.size()) {
            List<Task> live = new ArrayList<>(queue.size() - cancelledInQueue);
            for (Task q : queue) {
                if (q.state != Task.CANCELLED) {
                    live.add(q);
                }
            }
            queue.clear();
            queue.addAll(live);
            cancelledInQueue = 0;
        }
        return true;
    }

    /** A queued task; ordered by due time, then submission order. Guarded by the service's lock. */
    private final class Task implements Comparable<Task>, Timer {
        static final int PENDING = 0;
        static final int RUNNING = 1;
        static final int DONE = 2;
        static final int CANCELLED = 3;

        final long due;
        final long seq;
        /** What to run; null once cancelled. */
        Runnable task;
        int state = PENDING;

        Task(long due, long seq, Runnable task) {
            this.due = due;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public int compareTo(Task o) {
            int c = Long.compare(due, o.due);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }

        @Override
        public boolean cancel() {
            return VirtualTimerService.this.cancel(this);
        }
    }
}
