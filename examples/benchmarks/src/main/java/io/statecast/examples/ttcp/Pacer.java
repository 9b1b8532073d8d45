package io.statecast.examples.ttcp;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A token bucket that paces sends at a set rate. Send {@code k} is due at
 * {@code origin + k / rate}, an absolute schedule: a wait that overshoots (parking is only as
 * precise as the kernel's timer slack, tens of microseconds) makes the next sends due at once, so
 * the average rate stays exact while single gaps jitter. A sender that falls further behind than
 * {@code burst} messages loses the excess credit — it never sends more than {@code burst}
 * messages back to back to catch up.
 *
 * <p>With a tick ({@code tickNanos > 0}) the pacer wakes at most once per tick: a send that is not
 * due yet waits for the end of the tick its due time falls in, and the sends due within that tick
 * then go back to back. No send leaves early and the average rate is unchanged; each leaves up to
 * one tick late. Waking once per tick instead of once per message spares the sender a park and an
 * unpark per message and hands every thread downstream (transport, MessageStore, receivers) a
 * batch per wake-up instead of one message; iperf3 paces with the same one-millisecond timer.
 * The catch-up credit is then at least one tick, whatever {@code burst} says.
 *
 * <p>Waits park the thread ({@link LockSupport#parkNanos}) rather than sleep, whose millisecond
 * granularity would cap the rate at about 1,000 messages a second. Not thread-safe: one sender
 * thread owns it.
 */
public final class Pacer {

    /** How the pacer waits (parks the thread; a virtual clock in tests). */
    @FunctionalInterface
    public interface Waiter {
        /** Waits about {@code nanos}; may return early or late. */
        void parkNanos(long nanos) throws InterruptedException;
    }

    private final double periodNanos;
    private final long creditNanos;
    private final long tickNanos;
    private final LongSupplier clock;
    private final Waiter waiter;
    private long origin;
    private long k;
    private boolean started;
    private long maxBehindNanos;
    private long creditLost;

    /**
     * @param ratePerSecond messages per second, &gt; 0; {@link Double#POSITIVE_INFINITY} paces nothing
     * @param burst         most messages sent back to back to catch up, &ge; 1
     * @param clock         a monotonic nanosecond clock
     * @param waiter        how to wait
     */
    public Pacer(double ratePerSecond, int burst, LongSupplier clock, Waiter waiter) {
        this(ratePerSecond, burst, 0, clock, waiter);
    }

    /**
     * @param ratePerSecond messages per second, &gt; 0; {@link Double#POSITIVE_INFINITY} paces nothing
     * @param burst         most messages sent back to back to catch up, &ge; 1
     * @param tickNanos     wake at most once per this many nanoseconds (0: once per message), &le; 1 s
     * @param clock         a monotonic nanosecond clock
     * @param waiter        how to wait
     */
    public Pacer(double ratePerSecond, int burst, long tickNanos, LongSupplier clock, Waiter waiter) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate=" + ratePerSecond + " must be > 0");
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst=" + burst + " must be >= 1");
        }
        if (tickNanos < 0 || tickNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("tick=" + tickNanos + " ns must be within 0..1000000000");
        }
        this.tickNanos = tickNanos;
        this.periodNanos = Double.isInfinite(ratePerSecond) ? 0 : 1e9 / ratePerSecond;
        // a tick's sends leave back to back by design: never count them as having fallen behind
        this.creditNanos = Math.max((long) Math.ceil(periodNanos * burst), tickNanos);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.waiter = Objects.requireNonNull(waiter, "waiter");
    }

    /** A pacer on {@link System#nanoTime()} that parks the thread, waking at most once per {@code tickNanos}. */
    public static Pacer system(double ratePerSecond, int burst, long tickNanos) {
        return new Pacer(ratePerSecond, burst, tickNanos, System::nanoTime, nanos -> {
            LockSupport.parkNanos(nanos);
            if (Thread.interrupted()) {
                throw new InterruptedException("pacer interrupted");
            }
        });
    }

    /**
     * The default burst: fifty milliseconds of the rate, at least one message. Enough credit to
     * ride out a scheduling stall on a machine whose cores are shared by many processes without
     * lowering the average rate; small enough that a catch-up burst at up to the link rate fits
     * the testbed links' queues (tbf bounded to 50 ms).
     */
    public static int defaultBurst(double ratePerSecond) {
        if (Double.isInfinite(ratePerSecond)) {
            return 1;
        }
        return (int) Math.max(1, Math.min(1_000_000, Math.ceil(ratePerSecond * 0.050)));
    }

    /**
     * Waits until the next message is due and takes its token.
     *
     * @return the clock reading at which the caller may send
     */
    public long acquire() throws InterruptedException {
        long now = clock.getAsLong();
        if (!started) {
            started = true;
            origin = now;
        }
        if (periodNanos == 0) {
            k++;
            return now;
        }
        long due = origin + (long) (k * periodNanos);
        long behind = now - due;
        if (behind > maxBehindNanos) {
            maxBehindNanos = behind;
        }
        if (behind > creditNanos) {
            // too far behind: forget the credit beyond one burst
            origin += behind - creditNanos;
            due = now - creditNanos;
            creditLost++;
        }
        if (now < due) {
            long wake = due;
            if (tickNanos > 0) {
                // the end of the tick (counted from the origin) that holds the due time
                wake = origin + ((due - origin + tickNanos - 1) / tickNanos) * tickNanos;
            }
            while (now < wake) {
                waiter.parkNanos(wake - now);
                now = clock.getAsLong();
            }
        }
        k++;
        return now;
    }

    /** Tokens taken so far. */
    public long taken() {
        return k;
    }

    /** The furthest behind schedule a token was taken, in nanoseconds. */
    public long maxBehindNanos() {
        return maxBehindNanos;
    }

    /** How often the sender fell more than a burst behind and lost credit. */
    public long creditLost() {
        return creditLost;
    }
}
