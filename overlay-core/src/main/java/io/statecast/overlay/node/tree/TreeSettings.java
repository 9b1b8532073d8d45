package io.statecast.overlay.node.tree;

import io.statecast.overlay.address.SubstrateAddress;
import java.util.List;
import java.util.Objects;

/**
 * Settings of a {@link TreeNode}. The socket maps them from {@code OverlayConfig}, where each
 * default is documented; this record only checks the combinations the protocol relies on.
 *
 * @param fastHeartbeatMs       beacon interval while the node's view is changing
 * @param slowHeartbeatMs       beacon interval once it has been stable for {@code stableAfterHeartbeats}
 * @param timeoutMs             a link silent this long is dropped; a root whose sequence has not
 *                              advanced this long is considered gone
 * @param rendezvousMs          interval of beacons to buddies that are not links (the DT protocol's IAmHere)
 * @param stableAfterHeartbeats heartbeats without a change before the node is {@code STABLE}
 * @param maxHops               offers of a root further than this are ignored (stops count-to-infinity)
 * @param maxLinks              most links (peers exchanging beacons) a node keeps
 * @param maxSubtreeIds         longest subtree list sent or accepted
 * @param buddyCacheSize        addresses of timed-out links remembered as extra buddies
 * @param buddies               substrate addresses of nodes that may be in the overlay
 */
public record TreeSettings(
        long fastHeartbeatMs,
        long slowHeartbeatMs,
        long timeoutMs,
        long rendezvousMs,
        int stableAfterHeartbeats,
        int maxHops,
        int maxLinks,
        int maxSubtreeIds,
        int buddyCacheSize,
        List<SubstrateAddress> buddies) {

    /** Checks ranges and combinations. */
    public TreeSettings {
        buddies = List.copyOf(Objects.requireNonNull(buddies, "buddies"));
        positive("fastHeartbeatMs", fastHeartbeatMs);
        positive("slowHeartbeatMs", slowHeartbeatMs);
        positive("rendezvousMs", rendezvousMs);
        positive("stableAfterHeartbeats", stableAfterHeartbeats);
        positive("maxLinks", maxLinks);
        if (fastHeartbeatMs > slowHeartbeatMs) {
            throw new IllegalArgumentException("fastHeartbeatMs=" + fastHeartbeatMs + " must be <= slowHeartbeatMs=" + slowHeartbeatMs);
        }
        if (timeoutMs < 5 * slowHeartbeatMs) {
            throw new IllegalArgumentException("timeoutMs=" + timeoutMs + " must be >= 5 x slowHeartbeatMs=" + slowHeartbeatMs);
        }
        if (maxHops < 1 || maxHops > 0xFFFF) {
            throw new IllegalArgumentException("maxHops must be 1..65535, got " + maxHops);
        }
        if (maxSubtreeIds < 1 || maxSubtreeIds > 0xFFFF) {
            throw new IllegalArgumentException("maxSubtreeIds must be 1..65535, got " + maxSubtreeIds);
        }
        if (buddyCacheSize < 0) {
            throw new IllegalArgumentException("buddyCacheSize must be >= 0, got " + buddyCacheSize);
        }
    }

    private static void positive(String name, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + v);
        }
    }

    /** These settings with another buddy list. */
    public TreeSettings withBuddies(List<SubstrateAddress> newBuddies) {
        return new TreeSettings(fastHeartbeatMs, slowHeartbeatMs, timeoutMs, rendezvousMs, stableAfterHeartbeats,
                maxHops, maxLinks, maxSubtreeIds, buddyCacheSize, newBuddies);
    }
}
