package io.statecast.messagestore.deploy;

import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Messages of services not loaded (yet), held for a limited time in a bounded queue (blueprint
 * §5.1.4.1 step 3: processing is postponed until the spec arrives, and the message dropped if none
 * comes within an application-specified time). Thread-safe: messages arrive on I/O threads.
 */
public final class PendingMessages {

    /** A held message. */
    public record Held(OverlayMessage message, Arrival arrival, long sinceNanos) {
        /** The ServiceID it waits for. */
        public int serviceId() {
            return message.fsm().serviceId();
        }
    }

    /** What {@link #hold} did. */
    public enum Result {
        /** Held; the first message held for its ServiceID (ask for the spec now). */
        HELD_FIRST,
        /** Held; others for the same ServiceID wait already. */
        HELD,
        /** The queue is full; not held. */
        FULL
    }

    private final int capacity;
    private final long holdNanos;
    private final ArrayDeque<Held> queue = new ArrayDeque<>();

    /**
     * @param capacity  most messages held at once (0: none)
     * @param holdNanos how long a message waits for its spec
     */
    public PendingMessages(int capacity, long holdNanos) {
        if (capacity < 0 || holdNanos <= 0) {
            throw new IllegalArgumentException("capacity must be >= 0 and hold time > 0, got " + capacity + ", " + holdNanos);
        }
        this.capacity = capacity;
        this.holdNanos = holdNanos;
    }

    /** Holds a message of an unknown service. */
    public synchronized Result hold(OverlayMessage message, Arrival arrival, long nowNanos) {
        if (queue.size() >= capacity) {
            return Result.FULL;
        }
        int id = message.fsm().serviceId();
        boolean first = true;
        for (Held h : queue) {
            if (h.serviceId() == id) {
                first = false;
                break;
            }
        }
        queue.addLast(new Held(message, arrival, nowNanos));
        return first ? Result.HELD_FIRST : Result.HELD;
    }

    /** Removes and returns the messages held for {@code serviceId}, oldest first. */
    public synchronized List<Held> release(int serviceId) {
        List<Held> out = new ArrayList<>();
        Iterator<Held> it = queue.iterator();
        while (it.hasNext()) {
            Held h = it.next();
            if (h.serviceId() == serviceId) {
                it.remove();
                out.add(h);
            }
        }
        return out;
    }

    /** Removes the messages held longer than the hold time and hands each to {@code dropped}. */
    public void expire(long nowNanos, Consumer<Held> dropped) {
        List<Held> out = new ArrayList<>();
        synchronized (this) {
            while (!queue.isEmpty() && nowNanos - queue.peekFirst().sinceNanos() >= holdNanos) {
                out.add(queue.pollFirst());
            }
        }
        out.forEach(dropped);
    }

    /** Removes every held message and hands each to {@code dropped}. */
    public void clear(Consumer<Held> dropped) {
        List<Held> out;
        synchronized (this) {
            out = new ArrayList<>(queue);
            queue.clear();
        }
        out.forEach(dropped);
    }

    /** Messages held now. */
    public synchronized int size() {
        return queue.size();
    }

    /** The ServiceIDs messages wait for. */
    public synchronized Set<Integer> waitingFor() {
        Set<Integer> ids = new HashSet<>();
        for (Held h : queue) {
            ids.add(h.serviceId());
        }
        return ids;
    }

    /** The hold time. */
    public long holdNanos() {
        return holdNanos;
    }
}
