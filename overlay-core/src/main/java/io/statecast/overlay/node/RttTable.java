package io.statecast.overlay.node;

import io.statecast.overlay.address.LogicalAddress;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-neighbour round-trip times measured from heartbeat timestamps ({@link HeartbeatStamp}):
 * what to echo in the next heartbeat to each neighbour, and each neighbour's {@link RttEstimate}.
 *
 * <p>The node's protocol thread is the only writer: it stamps each heartbeat it sends
 * ({@link #stamp}), hands over each stamp it receives from a current neighbour
 * ({@link #receive}), and forgets a neighbour when it goes ({@link #forget},
 * {@link #retainOnly}), so the table never holds more than the node's neighbours. Any thread
 * may read the estimates ({@link #estimate}); each is an immutable record.
 *
 * <p>A neighbour whose heartbeats have never carried timestamps runs an older version that refuses
 * them: it is sent none until one of its heartbeats carries some (from then on it always is), so
 * mixed versions still form an overlay, without RTTs between old and new. Nodes of this version
 * stamp every heartbeat they send to a node they have not marked so, which keeps two of them from
 * ever taking each other for old ones. A timestamp is echoed once: a heartbeat that echoes it consumes it, so two heartbeats sent
 * before the next one arrives do not yield two samples of the same exchange. Samples below 0 or
 * above {@value #MAX_SAMPLE_MICROS} µs (a forged or garbled echo, a clock that jumped) are
 * dropped.
 */
public final class RttTable {

    /** Largest sample kept, in microseconds (60 s); larger ones are dropped as absurd. */
    public static final long MAX_SAMPLE_MICROS = 60_000_000L;

    /** What {@link #receive} made of a stamp. */
    public enum Outcome {
        /** The heartbeat carried no timestamps: the neighbour runs an older version, and is sent none. */
        UNSTAMPED,
        /** The stamp carried no echo: nothing to measure yet. */
        NO_ECHO,
        /** The echo gave a sample, now part of the estimate. */
        SAMPLED,
        /** The echo gave a negative or absurd sample, dropped. */
        DROPPED
    }

    /** What to echo to one neighbour. Protocol thread only. */
    private static final class Pending {
        long theirSentMicros;
        long receivedAtMicros;
        boolean due;
        /** The neighbour has sent timestamps: it runs a version that takes them. */
        boolean stamps;
    }

    private final Map<LogicalAddress, Pending> pending = new HashMap<>();
    private final ConcurrentHashMap<LogicalAddress, RttEstimate> estimates = new ConcurrentHashMap<>();

    /** Microseconds of a monotonic nanosecond clock reading. */
    public static long micros(long nanoTime) {
        return Math.floorDiv(nanoTime, 1000L);
    }

    /**
     * The stamp for a heartbeat to {@code to} sent at {@code nowNanos}: this node's send time,
     * and the neighbour's last timestamp if one is waiting to be echoed (consumed); {@code null}
     * — send none — if the neighbour has been heard from but never with timestamps (a node of
     * an older version, which refuses the timestamp flags). Protocol thread only.
     */
    public HeartbeatStamp stamp(LogicalAddress to, long nowNanos) {
        long now = micros(nowNanos);
        Pending p = pending.get(to);
        if (p != null && !p.stamps) {
            return null;
        }
        HeartbeatStamp.Echo echo = null;
        if (p != null && p.due) {
            p.due = false;
            long held = now - p.receivedAtMicros;
            if (held >= 0 && held <= MAX_SAMPLE_MICROS) {
                echo = new HeartbeatStamp.Echo(p.theirSentMicros, held);
            }
        }
        return new HeartbeatStamp(now, echo);
    }

    /**
     * Takes the stamp of a heartbeat received at {@code nowNanos} from {@code from}, which must
     * be a current neighbour (the caller checks: the table keeps state only for neighbours);
     * {@code stamp} is {@code null} if the heartbeat carried none. Protocol thread only.
     */
    public Outcome receive(LogicalAddress from, HeartbeatStamp stamp, long nowNanos) {
        Objects.requireNonNull(from, "from");
        long now = micros(nowNanos);
        Pending p = pending.computeIfAbsent(from, k -> new Pending());
        if (stamp == null) {
            p.due = false;
            return Outcome.UNSTAMPED;
        }
        p.stamps = true;
        p.theirSentMicros = stamp.sentMicros();
        p.receivedAtMicros = now;
        p.due = true;
        HeartbeatStamp.Echo echo = stamp.echo();
        if (echo == null) {
            return Outcome.NO_ECHO;
        }
        // now is a nanoTime in µs, far from the long range's ends: neither bound overflows, and
        // an echo between them keeps the subtraction exact whatever a peer puts on the wire
        long earliest = now - MAX_SAMPLE_MICROS - HeartbeatStamp.MAX_HELD_MICROS;
        if (echo.echoMicros() > now || echo.echoMicros() < earliest) {
            return Outcome.DROPPED;
        }
        long sample = now - echo.echoMicros() - echo.heldMicros();
        if (sample < 0 || sample > MAX_SAMPLE_MICROS) {
            return Outcome.DROPPED;
        }
        RttEstimate old = estimates.get(from);
        estimates.put(from, old == null ? RttEstimate.first(sample) : old.next(sample));
        return Outcome.SAMPLED;
    }

    /** Forgets {@code neighbour} (it is no longer one). Protocol thread only. */
    public void forget(LogicalAddress neighbour) {
        pending.remove(neighbour);
        estimates.remove(neighbour);
    }

    /** Forgets every node not in {@code neighbours}. Protocol thread only. */
    public void retainOnly(Collection<? extends LogicalAddress> neighbours) {
        pending.keySet().retainAll(neighbours);
        estimates.keySet().retainAll(neighbours);
    }

    /** Forgets everything (the node left or changed its address). Protocol thread only. */
    public void clear() {
        pending.clear();
        estimates.clear();
    }

    /** The estimate for {@code neighbour}, empty if it is not a neighbour or gave no sample yet. Any thread. */
    public Optional<RttEstimate> estimate(LogicalAddress neighbour) {
        return Optional.ofNullable(estimates.get(neighbour));
    }

    /** How many nodes the table holds state for (its bound is the node's neighbour count). */
    public int size() {
        return Math.max(pending.size(), estimates.size());
    }
}
