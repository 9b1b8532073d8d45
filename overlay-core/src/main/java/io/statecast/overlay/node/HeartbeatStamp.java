package io.statecast.overlay.node;

/**
 * The timestamps a heartbeat carries so that each end can measure the round-trip time to the
 * other without trusting the other's clock (the echo of TCP's timestamp option, RFC 7323, and of
 * NTP): the sender's own send time, and — when it has one — the last send time it received from
 * the addressee together with how long it held it. The addressee's sample is
 * {@code now - echo - held}, all but {@code held} read on its own monotonic clock, so an offset
 * between the two clocks cancels out. Times are microseconds of the sender's monotonic clock
 * (opaque to the receiver, which only ever echoes them).
 *
 * @param sentMicros the sender's clock when it sent the heartbeat, microseconds
 * @param echo       the addressee's last timestamp and how long the sender held it, or
 *                   {@code null} if the sender has nothing to echo
 */
public record HeartbeatStamp(long sentMicros, Echo echo) {

    /** Largest {@link Echo#heldMicros()}: the field is an unsigned 32-bit count. */
    public static final long MAX_HELD_MICROS = 0xFFFF_FFFFL;

    /**
     * An echoed timestamp.
     *
     * @param echoMicros the addressee's {@link HeartbeatStamp#sentMicros()} as received
     * @param heldMicros microseconds between receiving it and sending this echo,
     *                   0..{@value HeartbeatStamp#MAX_HELD_MICROS}
     */
    public record Echo(long echoMicros, long heldMicros) {
        /** Checks the range of {@code heldMicros}. */
        public Echo {
            if (heldMicros < 0 || heldMicros > MAX_HELD_MICROS) {
                throw new IllegalArgumentException("held must be 0.." + MAX_HELD_MICROS + " µs, got " + heldMicros);
            }
        }
    }
}
