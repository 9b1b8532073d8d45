package io.statecast.overlay.forward;

import java.util.Map;

/**
 * A snapshot of the forwarding engine's counters.
 *
 * @param received      application messages received from the substrate
 * @param originated    messages this node originated (application and MessageStore sends)
 * @param delivered     messages handed to the local application
 * @param transmissions copies put on the substrate (originated and forwarded)
 * @param toStore       messages handed to the MessageStore
 * @param drops         drops by cause (every cause present, zero if none)
 */
public record ForwardingStatistics(
        long received, long originated, long delivered, long transmissions, long toStore,
        Map<DropCause, Long> drops) {

    /** Freezes the map. */
    public ForwardingStatistics {
        drops = Map.copyOf(drops);
    }

    /** Drops of one cause. */
    public long drops(DropCause cause) {
        return drops.getOrDefault(cause, 0L);
    }

    /** Drops of every cause. */
    public long totalDrops() {
        return drops.values().stream().mapToLong(Long::longValue).sum();
    }
}
