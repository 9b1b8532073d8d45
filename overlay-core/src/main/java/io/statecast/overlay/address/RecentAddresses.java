package io.statecast.overlay.address;

/**
 * The logical addresses decoded lately, so that decoding a message header reuses the address
 * object of a node seen before instead of allocating one per address field per message. A node
 * hears from few others (its neighbours and the sources whose trees pass through it), and a
 * message store keeps the messages of every lingering instance: without this, a forwarding node
 * holding 190,000 instances held 950,000 copies of six addresses for the collector to mark.
 *
 * <p>A direct-mapped table of {@link #slots()} entries: an address whose slot holds another is
 * built anew and takes the slot. Bounded whatever the input; a sender spraying addresses only
 * turns hits into misses.
 *
 * <p>Thread-safe without locks: slots hold immutable records (final fields, safely published),
 * and a race at worst replaces a slot or misses it.
 */
public final class RecentAddresses {

    /** Default number of slots. */
    public static final int DEFAULT_SLOTS = 256;

    private final LogicalAddress[] slots;
    private final int mask;

    /** A table of {@value #DEFAULT_SLOTS} slots. */
    public RecentAddresses() {
        this(DEFAULT_SLOTS);
    }

    /**
     * @param slots entries, a power of two from 1 to 2<sup>16</sup>
     * @throws IllegalArgumentException otherwise
     */
    public RecentAddresses(int slots) {
        if (slots < 1 || slots > 1 << 16 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two from 1 to 65536, got " + slots);
        }
        this.slots = new LogicalAddress[slots];
        this.mask = slots - 1;
    }

    /** Number of slots. */
    public int slots() {
        return slots.length;
    }

    /** The address of {@code family} whose {@link LogicalAddress#toBits()} form is {@code bits}. */
    public LogicalAddress get(LogicalAddress.Family family, long bits) {
        long h = bits * 0x9E3779B97F4A7C15L;
        int i = (int) (h >>> 40) & mask;
        LogicalAddress a = slots[i];
        if (a != null && a.toBits() == bits && a.family() == family) {
            return a;
        }
        a = LogicalAddress.fromBits(family, bits);
        slots[i] = a;
        return a;
    }
}
