package io.statecast.messagestore;

/**
 * A hashed timing wheel owned by one thread: the timers of a shard, advanced by the shard's own
 * thread as it works, so that setting, cancelling and firing a timer involves no other thread, no
 * lock and no allocation beyond the caller's {@link Entry}.
 *
 * <p>Time is cut into ticks of a fixed length; a timer due at time {@code t} gets the first tick
 * starting at or after {@code t}, and fires on the first {@link #advance} whose time has reached
 * that tick's start: never early, at most one tick (plus the owner's latency) late. Timers fire in
 * tick order; timers of the same tick in the order they were scheduled. {@link #SLOTS} slots hold
 * the ticks of one revolution; a timer due in the revolution after the cursor's waits in its slot
 * and is passed over (one comparison) at most once. A timer due later still waits on a coarse
 * wheel of {@link #FAR_SLOTS} revolution-long slots and moves to the fine one when the cursor
 * enters the revolution before its own: a service that keeps finished instances for half a minute
 * sets hundreds of thousands of such timers, and passing each of them once per revolution cost a
 * busy owner several percent of its time. A timer scheduled for a tick the wheel has already
 * passed (an expiry re-arming itself with a short delay) fires on the next tick processed.
 *
 * <p>Slots are doubly linked lists, so cancelling is O(1) and releases the entry at once; a
 * bitmap of the non-empty slots lets {@link #advance} and {@link #nextDeadlineNanos()} skip empty
 * ticks a word (64 ticks) at a time, and the latter looks a few entries into the occupied slots
 * so that an idle owner does not wake for a slot that holds only timers of later revolutions. What
 * it finds is kept as a lower bound of every deadline (lowered by each {@link #schedule}) until
 * the wheel passes it, so an owner going idle after every message does not look again each time,
 * and {@link #advance} skips the slots before it. Nothing here is thread-safe: every method, and
 * {@link Entry#cancel()}, must be called by the owning thread (or after it has stopped).
 */
final class TimerWheel {

    /** Slots per revolution (a power of two): about 4 s with 1 ms ticks. */
    static final int SLOTS = 4096;
    private static final int MASK = SLOTS - 1;
    /** log2 of {@link #SLOTS}: a tick's revolution is {@code tick >> REVOLUTION_SHIFT}. */
    private static final int REVOLUTION_SHIFT = Integer.numberOfTrailingZeros(SLOTS);
    /**
     * Revolutions the coarse wheel holds (a power of two): about 17 min with 1 ms ticks; a timer
     * further out is passed over once per turn of the coarse wheel.
     */
    static final int FAR_SLOTS = 256;
    private static final int FAR_MASK = FAR_SLOTS - 1;
    /** Entries {@link #nextDeadlineNanos()} looks at, at most, for one due in this revolution. */
    private static final int LOOK_AHEAD = 32;

    private static final byte IDLE = 0;
    private static final byte SCHEDULED = 1;
    private static final byte DUE = 2;
    private static final byte DUE_CANCELLED = 3;
    /** Set, on the coarse wheel. */
    private static final byte FAR = 4;

    /**
     * One timer: subclasses carry what the expiry needs and are their own cancel handle. An entry
     * may be scheduled again once it has fired or been cancelled (also from its own expiry).
     */
    abstract static class Entry {
        private Entry prev;
        private Entry next;
        private long deadline;
        private byte state;
        private TimerWheel wheel;

        /** Runs on the owning thread when the timer is due. */
        protected abstract void expire();

        /**
         * Cancels the timer if it has not fired yet (also when it is due in the batch firing now).
         *
         * @return false if it already fired or was cancelled, or was never scheduled
         */
        public final boolean cancel() {
            switch (state) {
                case SCHEDULED -> {
                    wheel.unlink(this);
                    state = IDLE;
                    return true;
                }
                case FAR -> {
                    wheel.unlinkFar(this);
                    wheel.size--;
                    state = IDLE;
                    return true;
                }
                case DUE -> {
                    state = DUE_CANCELLED; // still chained among the due entries; skipped there
                    return true;
                }
                default -> {
                    return false;
                }
            }
        }

        /** Whether the timer is set and has not fired or been cancelled. */
        final boolean pending() {
            return state == SCHEDULED || state == DUE || state == FAR;
        }
    }

    private final long tickNanos;
    private final Entry[] heads = new Entry[SLOTS];
    private final Entry[] tails = new Entry[SLOTS];
    private final long[] occupied = new long[SLOTS / 64];
    /**
     * The coarse wheel: per revolution modulo {@link #FAR_SLOTS}, the timers due in a revolution
     * at least two after the cursor's (the invariant {@link #moveCursor} keeps).
     */
    private final Entry[] farHeads = new Entry[FAR_SLOTS];
    private final Entry[] farTails = new Entry[FAR_SLOTS];
    private int farSize;
    /** The next tick to process; every scheduled entry is due at or after it. */
    private long cursor;
    /** Start of {@link #cursor}'s tick: an {@link #advance} before it has nothing to do. */
    private long cursorNanos;
    private int size;
    /**
     * A tick no entry in the slots is due before, while it is at or after the cursor: found by
     * {@link #nextDeadlineNanos()}, lowered by {@link #schedule}; below the cursor it says nothing.
     */
    private long bound = Long.MIN_VALUE;
    // entries taken off their slot and waiting to fire, in firing order (linked through next)
    private Entry dueHead;
    private Entry dueTail;

    /**
     * @param tickNanos length of a tick, > 0
     * @param nowNanos  the owner's clock now
     */
    TimerWheel(long tickNanos, long nowNanos) {
        if (tickNanos <= 0) {
            throw new IllegalArgumentException("tickNanos must be > 0, got " + tickNanos);
        }
        this.tickNanos = tickNanos;
        this.cursor = Math.floorDiv(nowNanos, tickNanos);
        this.cursorNanos = cursor * tickNanos;
    }

    /** Timers set and not yet taken off the wheel to fire (on either wheel). */
    int size() {
        return size;
    }

    /**
     * Sets {@code e} to fire {@code delayNanos} after {@code nowNanos} (a negative delay counts as
     * zero; a delay beyond the clock's range as "never").
     *
     * @throws IllegalStateException if {@code e} is set already
     */
    void schedule(Entry e, long nowNanos, long delayNanos) {
        if (e.state != IDLE) {
            throw new IllegalStateException("timer entry is set already");
        }
        long at = nowNanos + Math.max(0, delayNanos);
        if (at < nowNanos) {
            at = Long.MAX_VALUE; // saturated: in practice never
        }
        long tick = Math.max(-Math.floorDiv(-at, tickNanos), cursor); // ceiling, but not in the past
        e.deadline = tick;
        e.wheel = this;
        if ((tick >> REVOLUTION_SHIFT) - (cursor >> REVOLUTION_SHIFT) >= 2) {
            linkFar(e);
        } else {
            link(e);
        }
        size++;
        bound = Math.min(bound, tick);
    }

    /** Appends {@code e} to its slot of the fine wheel. */
    private void link(Entry e) {
        e.state = SCHEDULED;
        int slot = (int) (e.deadline & MASK);
        if (append(e, heads, tails, slot)) {
            occupied[slot >>> 6] |= 1L << slot;
        }
    }

    /** Appends {@code e} to its slot of the coarse wheel. */
    private void linkFar(Entry e) {
        e.state = FAR;
        append(e, farHeads, farTails, (int) ((e.deadline >> REVOLUTION_SHIFT) & FAR_MASK));
        farSize++;
    }

    /** Appends {@code e} to list {@code slot}; true if the list was empty. */
    private static boolean append(Entry e, Entry[] heads, Entry[] tails, int slot) {
        Entry tail = tails[slot];
        e.prev = tail;
        e.next = null;
        tails[slot] = e;
        if (tail == null) {
            heads[slot] = e;
            return true;
        }
        tail.next = e;
        return false;
    }

    /**
     * Fires, in order, every timer due at {@code nowNanos} — including those their expiries set
     * and that are due by then. An exception from an expiry propagates; the wheel stays consistent
     * and the remaining due timers fire on the next call.
     */
    void advance(long nowNanos) {
        fireDue();
        if (nowNanos < cursorNanos) {
            return;
        }
        long target = Math.floorDiv(nowNanos, tickNanos);
        while (cursor <= target) {
            if (size == 0) {
                moveCursor(target + 1); // nothing on either wheel to move
                break;
            }
            // one revolution at a time, so that the coarse wheel hands over each in turn
            long last = Math.min(target, ((cursor >> REVOLUTION_SHIFT) + 1 << REVOLUTION_SHIFT) - 1);
            long tick = nextOccupied(cursor);
            if (bound > tick) {
                tick = bound; // the slots before it hold later revolutions only
            }
            if (tick > last) {
                moveCursor(last + 1);
                continue;
            }
            moveCursor(tick + 1); // before the expiries run: what they set goes to a later tick
            takeDue(tick);
            fireDue();
        }
    }

    /**
     * Sets the cursor to {@code tick}, at most into the next revolution (unless both wheels are
     * empty). Entering revolution {@code r} moves the timers of revolution {@code r + 1} from the
     * coarse wheel to the fine one, so that the coarse wheel holds only revolutions {@code r + 2}
     * on, as {@link #schedule} assumes.
     */
    private void moveCursor(long tick) {
        long from = cursor >> REVOLUTION_SHIFT;
        cursor = tick;
        cursorNanos = tick * tickNanos;
        long to = tick >> REVOLUTION_SHIFT;
        if (to != from && farSize > 0) {
            takeFar(to + 1);
        }
    }

    /** Moves the coarse wheel's timers of revolution {@code revolution} (or earlier) to the fine wheel. */
    private void takeFar(long revolution) {
        int slot = (int) (revolution & FAR_MASK);
        Entry e = farHeads[slot];
        while (e != null) {
            Entry following = e.next;
            if (e.deadline >> REVOLUTION_SHIFT <= revolution) {
                unlinkFar(e);
                link(e);
            }
            e = following;
        }
    }

    /**
     * When the next {@link #advance} may have a timer to fire — a lower bound: the start of the
     * earliest timer's tick if it is found among the first {@link #LOOK_AHEAD} entries of the
     * occupied slots (in tick order), else of the slot where the look stopped, or of the next
     * revolution if every timer is further out. {@link Long#MIN_VALUE} if due timers wait already,
     * {@link Long#MAX_VALUE} if no timer is set.
     */
    long nextDeadlineNanos() {
        if (dueHead != null) {
            return Long.MIN_VALUE;
        }
        if (size == 0) {
            bound = Long.MAX_VALUE; // what is scheduled next sets it exactly
            return Long.MAX_VALUE;
        }
        if (bound < cursor) {
            bound = lookAhead();
        }
        return bound > Long.MAX_VALUE / tickNanos - 1 ? Long.MAX_VALUE : bound * tickNanos;
    }

    /** A tick no entry is due before: see {@link #nextDeadlineNanos()}; the wheel is not empty. */
    private long lookAhead() {
        long end = cursor + SLOTS;
        int budget = LOOK_AHEAD;
        for (long t = nextOccupied(cursor); t < end; t = nextOccupied(t + 1)) {
            for (Entry e = heads[(int) (t & MASK)]; e != null; e = e.next) {
                if (e.deadline == t || --budget == 0) {
                    return t;
                }
            }
        }
        return end; // the slots passed hold later revolutions only
    }

    /**
     * The first tick from {@code from} on, within one revolution, whose slot is not empty;
     * {@link Long#MAX_VALUE} if none is.
     */
    private long nextOccupied(long from) {
        int start = (int) (from & MASK);
        int word = start >>> 6;
        long bits = occupied[word] & (-1L << start);
        for (int i = 0; i <= occupied.length; i++) {
            if (bits != 0) {
                int slot = (word << 6) + Long.numberOfTrailingZeros(bits);
                return from + ((slot - start) & MASK);
            }
            word = (word + 1) & (occupied.length - 1);
            bits = occupied[word];
        }
        return Long.MAX_VALUE;
    }

    /** Moves the entries of {@code tick} from their slot to the end of the due chain. */
    private void takeDue(long tick) {
        Entry e = heads[(int) (tick & MASK)];
        while (e != null) {
            Entry following = e.next;
            if (e.deadline <= tick) {
                unlink(e);
                e.state = DUE;
                if (dueTail == null) {
                    dueHead = e;
                } else {
                    dueTail.next = e;
                }
                dueTail = e;
            }
            e = following;
        }
    }

    private void fireDue() {
        Entry e;
        while ((e = dueHead) != null) {
            dueHead = e.next;
            if (dueHead == null) {
                dueTail = null;
            }
            e.next = null;
            boolean live = e.state == DUE;
            e.state = IDLE;
            if (live) {
                e.expire();
            }
        }
    }

    private void unlinkFar(Entry e) {
        detach(e, farHeads, farTails, (int) ((e.deadline >> REVOLUTION_SHIFT) & FAR_MASK));
        farSize--;
    }

    private void unlink(Entry e) {
        int slot = (int) (e.deadline & MASK);
        if (detach(e, heads, tails, slot)) {
            occupied[slot >>> 6] &= ~(1L << slot);
        }
        size--;
    }

    /** Takes {@code e} out of list {@code slot}; true if the list is empty now. */
    private static boolean detach(Entry e, Entry[] heads, Entry[] tails, int slot) {
        if (e.prev == null) {
            heads[slot] = e.next;
        } else {
            e.prev.next = e.next;
        }
        if (e.next == null) {
            tails[slot] = e.prev;
        } else {
            e.next.prev = e.prev;
        }
        e.prev = null;
        e.next = null;
        return heads[slot] == null;
    }
}
