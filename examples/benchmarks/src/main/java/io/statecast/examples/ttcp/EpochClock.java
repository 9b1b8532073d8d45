package io.statecast.examples.ttcp;

import java.time.Instant;

/**
 * Wall-clock time in microseconds since the epoch, read from the monotonic clock anchored once to
 * the system clock. Sender and receivers run on one machine (network namespaces share its clock),
 * so their timestamps are comparable; anchoring keeps them monotonic and cheap within a process,
 * and the anchors of two processes differ by the system clock's resolution (about a microsecond
 * on Linux), far below the delays measured.
 */
public final class EpochClock {

    private final long anchorMicros;
    private final long anchorNanos;

    private EpochClock(long anchorMicros, long anchorNanos) {
        this.anchorMicros = anchorMicros;
        this.anchorNanos = anchorNanos;
    }

    /** A clock anchored now. */
    public static EpochClock system() {
        Instant now = Instant.now();
        long nanos = System.nanoTime();
        return new EpochClock(now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000, nanos);
    }

    /** Microseconds since the epoch. */
    public long nowMicros() {
        return toMicros(System.nanoTime());
    }

    /** The epoch time, in microseconds, of a {@link System#nanoTime()} reading. */
    public long toMicros(long nanoTime) {
        return anchorMicros + (nanoTime - anchorNanos) / 1_000;
    }
}
