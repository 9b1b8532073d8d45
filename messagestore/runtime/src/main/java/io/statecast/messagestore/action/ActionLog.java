package io.statecast.messagestore.action;

import io.statecast.messagestore.spec.Primitive;
import java.util.ArrayList;
import java.util.List;

/**
 * An instance's most recent action records (the blueprint's <em>historyOfActions</em>), kept
 * compactly: a record is two longs in one ring array (its time, and its primitive, outcome and
 * line packed), plus its detail only when there is one. A finished instance waiting for its
 * last timer holds about ten records; as {@link ActionRecord}s in a deque they took about
 * 470 bytes, here about 190. {@link #records()} rebuilds the records on demand (inspection only).
 *
 * <p>Starts small and grows up to its capacity, then overwrites the oldest. Confined to the
 * instance's thread.
 */
public final class ActionLog {

    private static final Primitive[] PRIMITIVES = Primitive.values();
    private static final ActionOutcome[] OUTCOMES = ActionOutcome.values();
    private static final int FIRST_SLOTS = 4;

    private final int capacity;
    /** Records the first allocation holds. */
    private final int firstSlots;
    /** Record i (in ring order) is at 2i (time) and 2i + 1 (line << 16 | primitive << 8 | outcome). */
    private long[] slots;
    /** Details, parallel to the records; null until a record has a non-empty detail. */
    private String[] details;
    private int head;
    private int size;

    /** @param capacity most records kept (at least 1) */
    public ActionLog(int capacity) {
        this(capacity, FIRST_SLOTS);
    }

    /**
     * @param capacity    most records kept (at least 1)
     * @param expectedRecords records the instance is expected to take (an earlier instance's
     *                    count): the first allocation holds that many, up to the capacity, so
     *                    that a log of the usual length is never grown and copied
     */
    public ActionLog(int capacity, int expectedRecords) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.firstSlots = Math.max(1, Math.min(capacity, Math.max(FIRST_SLOTS, expectedRecords)));
    }

    /** Appends a record, dropping the oldest when full. */
    public void add(Primitive primitive, int line, long timeMillis, ActionOutcome outcome, String detail) {
        int slotCount = slots == null ? 0 : slots.length / 2;
        int at;
        if (size < slotCount) {
            at = (head + size) % slotCount;
            size++;
        } else if (slotCount < capacity) {
            grow(slotCount);
            at = size++;
        } else {
            at = head;
            head = (head + 1) % slotCount;
        }
        slots[2 * at] = timeMillis;
        slots[2 * at + 1] = ((long) line << 16) | (primitive.ordinal() << 8) | outcome.ordinal();
        if (!detail.isEmpty() && details == null) {
            details = new String[slots.length / 2];
        }
        if (details != null) {
            details[at] = detail.isEmpty() ? null : detail;
        }
    }

    /** Grows to hold more records, laying the ring out from index 0. */
    private void grow(int slotCount) {
        // first to the expected length, then by a constant step: a retained instance holds at
        // most FIRST_SLOTS - 1 unused slots beyond what the last one took
        int grown = slotCount == 0 ? firstSlots : Math.min(capacity, slotCount + FIRST_SLOTS);
        long[] s = new long[2 * grown];
        String[] d = details == null ? null : new String[grown];
        for (int i = 0; i < size; i++) {
            int from = (head + i) % slotCount;
            s[2 * i] = slots[2 * from];
            s[2 * i + 1] = slots[2 * from + 1];
            if (d != null) {
                d[i] = details[from];
            }
        }
        slots = s;
        details = d;
        head = 0;
    }

    /** Number of records held. */
    public int size() {
        return size;
    }

    /** The records, oldest first (a copy). */
    public List<ActionRecord> records() {
        if (size == 0) {
            return List.of();
        }
        int slotCount = slots.length / 2;
        List<ActionRecord> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            int at = (head + i) % slotCount;
            long packed = slots[2 * at + 1];
            String detail = details == null || details[at] == null ? "" : details[at];
            out.add(new ActionRecord(PRIMITIVES[(int) (packed >>> 8) & 0xff], (int) (packed >> 16), slots[2 * at],
                    OUTCOMES[(int) packed & 0xff], detail));
        }
        return List.copyOf(out);
    }
}
