package io.statecast.overlay.security;

/**
 * The anti-replay window of one sender's counter stream (RFC 4303 §3.4.3, as IPsec and DTLS do
 * it): the highest counter accepted so far and a bitmap of which of the {@value #SIZE} counters
 * at and below it were seen. A counter above the highest is accepted and slides the window; one
 * within it is accepted once; one below it is refused (it may be a replay, and the window cannot
 * tell). Not thread-safe: the caller holds a lock.
 */
final class ReplayWindow {

    /** Counters the window remembers below the highest one. */
    static final int SIZE = 1024;

    private static final int WORDS = SIZE / 64;

    private final long[] seen = new long[WORDS];
    private long highest = -1;

    /**
     * Accepts {@code counter} if it was not seen and is not too old, and records it.
     *
     * @param counter a counter the sender's MAC vouches for, 0 or more
     * @return false for a replay or a counter {@value #SIZE} or more below the highest
     */
    boolean accept(long counter) {
        if (counter < 0) {
            return false;
        }
        if (counter > highest) {
            long ahead = counter - highest;
            if (highest < 0 || ahead >= SIZE) {
                java.util.Arrays.fill(seen, 0L);
            } else {
                for (long c = highest + 1; c < counter; c++) {
                    clear(c);
                }
            }
            highest = counter;
            set(counter);
            return true;
        }
        if (highest - counter >= SIZE) {
            return false;
        }
        int bit = (int) (counter & (SIZE - 1));
        long mask = 1L << bit;
        int word = bit >>> 6;
        if ((seen[word] & mask) != 0) {
            return false;
        }
        seen[word] |= mask;
        return true;
    }

    /** The highest counter accepted, or -1 before the first. */
    long highest() {
        return highest;
    }

    private void set(long counter) {
        int bit = (int) (counter & (SIZE - 1));
        seen[bit >>> 6] |= 1L << bit;
    }

    private void clear(long counter) {
        int bit = (int) (counter & (SIZE - 1));
        seen[bit >>> 6] &= ~(1L << bit);
    }
}
