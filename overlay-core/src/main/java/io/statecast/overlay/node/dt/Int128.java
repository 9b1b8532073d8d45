package io.statecast.overlay.node.dt;

/**
 * A signed 128-bit integer, just wide enough for the exact predicates: a product of two
 * {@code long}s, sums of a few such products, sign and comparison. No overflow checks: callers
 * keep their values inside the 128-bit range by the bounds documented in {@link Predicates}.
 *
 * @param hi the upper 64 bits (carries the sign)
 * @param lo the lower 64 bits, read as unsigned
 */
record Int128(long hi, long lo) {

    /** The exact product {@code a * b}. */
    static Int128 product(long a, long b) {
        return new Int128(Math.multiplyHigh(a, b), a * b);
    }

    /** The sign of {@code a·b − c·d}, exactly and without allocating. */
    static int compareProducts(long a, long b, long c, long d) {
        int byHigh = Long.compare(Math.multiplyHigh(a, b), Math.multiplyHigh(c, d));
        return byHigh != 0 ? byHigh : Long.compareUnsigned(a * b, c * d);
    }

    /** The exact sum {@code this + other} (the caller guarantees it fits in 128 bits). */
    Int128 plus(Int128 other) {
        long sumLo = lo + other.lo;
        long carry = Long.compareUnsigned(sumLo, lo) < 0 ? 1 : 0;
        return new Int128(hi + other.hi + carry, sumLo);
    }

    /** −1, 0 or +1. */
    int signum() {
        if (hi != 0) {
            return hi < 0 ? -1 : 1;
        }
        return lo == 0 ? 0 : 1;
    }

    /** Signed comparison: the sign of {@code this − other}. */
    int compareTo(Int128 other) {
        int byHigh = Long.compare(hi, other.hi);
        return byHigh != 0 ? byHigh : Long.compareUnsigned(lo, other.lo);
    }
}
