package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.SubstrateAddress;
import java.util.List;
import java.util.Objects;

/**
 * Settings of a {@link DtNode}. The socket maps the timers, buddies and address frame from
 * {@code OverlayConfig} (where their defaults are documented); the protocol bounds below have
 * their defaults here ({@link #withDefaults}).
 *
 * @param fastHeartbeatMs       Hello interval while the node's view is changing
 * @param slowHeartbeatMs       Hello interval once it has been stable for {@code stableAfterHeartbeats}
 * @param timeoutMs             a neighbour silent this long is dropped; must be at least
 *                              5 × {@code slowHeartbeatMs} so one lost Hello never removes one
 * @param iAmHereMs             rendezvous interval: how often a lone node, a leader or a node with
 *                              buddies contacts a buddy (NewNode or IAmHere)
 * @param stableAfterHeartbeats heartbeats without a change before the node is {@code STABLE}
 * @param buddyCacheSize        substrate addresses of timed-out neighbours remembered as extra buddies
 * @param buddies               substrate addresses of nodes that may be in the overlay
 * @param redrawFrame           where to draw new coordinates when the node's own turn out to be
 *                              taken at join ({@code RANDOM} addresses); {@code null}: fail instead
 * @param maxNeighbours         most neighbours kept; a node that would pass beyond it is refused
 *                              (a bound against hostile Hellos; real triangulations need far fewer
 *                              except for points on a common circle around a centre); default
 *                              {@value #DEFAULT_MAX_NEIGHBOURS}
 * @param newNodeHops           hops a NewNode or IAmLeader may travel; default {@value #DEFAULT_NEW_NODE_HOPS}
 *                              (compass paths are about √N hops)
 * @param maxRedraws            how often a node draws new coordinates before it gives up; default
 *                              {@value #DEFAULT_MAX_REDRAWS}
 */
public record DtSettings(
        long fastHeartbeatMs,
        long slowHeartbeatMs,
        long timeoutMs,
        long iAmHereMs,
        int stableAfterHeartbeats,
        int buddyCacheSize,
        List<SubstrateAddress> buddies,
        Frame redrawFrame,
        int maxNeighbours,
        int newNodeHops,
        int maxRedraws) {

    /** Default {@link #maxNeighbours()}. */
    public static final int DEFAULT_MAX_NEIGHBOURS = 512;
    /** Default {@link #newNodeHops()}. */
    public static final int DEFAULT_NEW_NODE_HOPS = 255;
    /** Default {@link #maxRedraws()}. */
    public static final int DEFAULT_MAX_REDRAWS = 16;

    /**
     * A rectangle of coordinates, bounds inclusive.
     *
     * @param minX smallest x
     * @param minY smallest y
     * @param maxX largest x
     * @param maxY largest y
     */
    public record Frame(int minX, int minY, int maxX, int maxY) {
        /** Checks that the frame is not empty. */
        public Frame {
            if (minX > maxX || minY > maxY) {
                throw new IllegalArgumentException("empty frame " + minX + "," + minY + " .. " + maxX + "," + maxY);
            }
        }
    }

    /** Checks ranges and combinations. */
    public DtSettings {
        buddies = List.copyOf(Objects.requireNonNull(buddies, "buddies"));
        positive("fastHeartbeatMs", fastHeartbeatMs);
        positive("slowHeartbeatMs", slowHeartbeatMs);
        positive("iAmHereMs", iAmHereMs);
        positive("stableAfterHeartbeats", stableAfterHeartbeats);
        positive("maxNeighbours", maxNeighbours);
        if (fastHeartbeatMs > slowHeartbeatMs) {
            throw new IllegalArgumentException("fastHeartbeatMs=" + fastHeartbeatMs + " must be <= slowHeartbeatMs=" + slowHeartbeatMs);
        }
        if (timeoutMs < 5 * slowHeartbeatMs) {
            throw new IllegalArgumentException("timeoutMs=" + timeoutMs + " must be >= 5 x slowHeartbeatMs=" + slowHeartbeatMs);
        }
        if (buddyCacheSize < 0) {
            throw new IllegalArgumentException("buddyCacheSize must be >= 0, got " + buddyCacheSize);
        }
        if (newNodeHops < 1 || newNodeHops > DtMessages.MAX_HOPS) {
            throw new IllegalArgumentException("newNodeHops must be 1.." + DtMessages.MAX_HOPS + ", got " + newNodeHops);
        }
        if (maxRedraws < 0) {
            throw new IllegalArgumentException("maxRedraws must be >= 0, got " + maxRedraws);
        }
    }

    /**
     * Settings with the given timers, buddies and redraw frame and the default protocol bounds.
     */
    public static DtSettings withDefaults(long fastHeartbeatMs, long slowHeartbeatMs, long timeoutMs, long iAmHereMs,
                                          int stableAfterHeartbeats, int buddyCacheSize, List<SubstrateAddress> buddies,
                                          Frame redrawFrame) {
        return new DtSettings(fastHeartbeatMs, slowHeartbeatMs, timeoutMs, iAmHereMs, stableAfterHeartbeats, buddyCacheSize,
                buddies, redrawFrame, DEFAULT_MAX_NEIGHBOURS, DEFAULT_NEW_NODE_HOPS, DEFAULT_MAX_REDRAWS);
    }

    /** These settings with another buddy list. */
    public DtSettings withBuddies(List<SubstrateAddress> newBuddies) {
        return new DtSettings(fastHeartbeatMs, slowHeartbeatMs, timeoutMs, iAmHereMs, stableAfterHeartbeats, buddyCacheSize,
                newBuddies, redrawFrame, maxNeighbours, newNodeHops, maxRedraws);
    }

    /** These settings with another neighbour bound. */
    public DtSettings withMaxNeighbours(int bound) {
        return new DtSettings(fastHeartbeatMs, slowHeartbeatMs, timeoutMs, iAmHereMs, stableAfterHeartbeats, buddyCacheSize,
                buddies, redrawFrame, bound, newNodeHops, maxRedraws);
    }

    private static void positive(String name, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + v);
        }
    }
}
