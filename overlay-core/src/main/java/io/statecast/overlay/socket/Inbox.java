package io.statecast.overlay.socket;

import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A socket's receive queue: bounded, first in first out, any number of producers and takers.
 * Unlike a {@code BlockingQueue}, a producer may add a message <em>quietly</em> — without waking a
 * taker — and wake the takers once for a whole batch with {@link #wakeTakers()}. A MessageStore
 * delivers from its shard thread a message at a time; waking the application's thread for each
 * one (an {@code unpark}, a futex call) took an eighth of a saturated receiver's shard. A message
 * added quietly is visible at once to a taker that is not waiting; one that waits sees it at the
 * producer's next {@link #wakeTakers()}.
 *
 * <p>Thread-safe.
 */
final class Inbox {

    private final int capacity;
    private final ArrayDeque<OverlayMessage> items;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    /** Takers waiting on {@link #notEmpty}; guarded by {@link #lock}. */
    private int takersWaiting;
    /** Producers waiting on {@link #notFull}; guarded by {@link #lock}. */
    private int producersWaiting;
    /** Messages were added quietly while takers waited; read without the lock by wakeTakers. */
    private volatile boolean wakeOwed;

    /** @param capacity most messages held (at least 1) */
    Inbox(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.items = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    /**
     * Adds {@code message} if there is room, never waiting.
     *
     * @param wake whether to wake a waiting taker now; if not, the caller calls
     *             {@link #wakeTakers()} once its batch is done
     * @return false if the queue is full
     */
    boolean offer(OverlayMessage message, boolean wake) {
        lock.lock();
        try {
            if (items.size() == capacity) {
                return false;
            }
            add(message, wake);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds {@code message}, waiting up to {@code timeout} for room.
     *
     * @param wake as for {@link #offer(OverlayMessage, boolean)}
     * @return false if the queue stayed full
     * @throws InterruptedException if interrupted while waiting
     */
    boolean offer(OverlayMessage message, boolean wake, long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (items.size() == capacity) {
                if (nanos <= 0) {
                    return false;
                }
                if (wakeOwed) { // the takers must know of what fills the queue before we wait for them
                    wakeOwed = false;
                    notEmpty.signalAll();
                }
                producersWaiting++;
                try {
                    nanos = notFull.awaitNanos(nanos);
                } finally {
                    producersWaiting--;
                }
            }
            add(message, wake);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void add(OverlayMessage message, boolean wake) {
        items.addLast(message);
        if (takersWaiting > 0) {
            if (wake) {
                notEmpty.signal();
            } else {
                wakeOwed = true;
            }
        }
    }

    /** Whether takers wait for messages added quietly (read without the lock). */
    boolean wakeOwed() {
        return wakeOwed;
    }

    /** Whether at least half the capacity is taken. */
    boolean halfFull() {
        return 2L * size() >= capacity;
    }

    /** Wakes the takers that wait for messages added quietly; cheap when none do. */
    void wakeTakers() {
        if (!wakeOwed) {
            return;
        }
        lock.lock();
        try {
            wakeOwed = false;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the oldest message, waiting up to {@code timeout} for one.
     *
     * @return the message, or {@code null} if none came in time
     * @throws InterruptedException if interrupted while waiting
     */
    OverlayMessage poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            OverlayMessage m;
            while ((m = items.pollFirst()) == null) {
                if (nanos <= 0) {
                    return null;
                }
                takersWaiting++;
                try {
                    nanos = notEmpty.awaitNanos(nanos);
                } finally {
                    takersWaiting--;
                }
            }
            if (producersWaiting > 0) {
                notFull.signal();
            }
            if (!items.isEmpty() && takersWaiting > 0) {
                notEmpty.signal(); // several were added under one wake-up: pass it on
            }
            return m;
        } finally {
            lock.unlock();
        }
    }

    /** Takes the oldest message, waiting as long as it takes. */
    OverlayMessage take() throws InterruptedException {
        return poll(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    }

    /** Messages held. */
    int size() {
        lock.lock();
        try {
            return items.size();
        } finally {
            lock.unlock();
        }
    }

    /** Whether a message offered now would be taken. */
    boolean hasRoom() {
        return size() < capacity;
    }
}
