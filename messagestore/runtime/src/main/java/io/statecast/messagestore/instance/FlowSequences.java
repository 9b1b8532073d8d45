package io.statecast.messagestore.instance;

import io.statecast.overlay.address.LogicalAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One service's sequence numbers, a counter per flow (the source address of the messages the
 * service's instances handle), starting at 0: what {@code sequence="next|instance"} takes.
 * Shared by the service's instances on every shard, hence the lock; only actions that use
 * sequence numbers take it.
 *
 * <p>Bounded: beyond {@link #MAX_FLOWS} flows the one unused longest is forgotten (a hostile
 * stream of sources cannot grow it without end); a forgotten flow starts again at 0, as after a
 * restart of the node.
 */
public final class FlowSequences {

    /** Most flows counted per service. */
    public static final int MAX_FLOWS = 65_536;

    private final int maxFlows;
    private final LinkedHashMap<LogicalAddress, long[]> next;

    /** Counts up to {@link #MAX_FLOWS} flows. */
    public FlowSequences() {
        this(MAX_FLOWS);
    }

    /** Counts up to {@code maxFlows} flows (tests use small bounds). */
    FlowSequences(int maxFlows) {
        if (maxFlows < 1) {
            throw new IllegalArgumentException("maxFlows must be >= 1, got " + maxFlows);
        }
        this.maxFlows = maxFlows;
        this.next = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<LogicalAddress, long[]> eldest) {
                return size() > FlowSequences.this.maxFlows;
            }
        };
    }

    /** The next number of the flow from {@code source}: 0, 1, 2, … (wrapping after {@code Long.MAX_VALUE}). */
    public synchronized long next(LogicalAddress source) {
        long[] n = next.computeIfAbsent(source, s -> new long[1]);
        long v = n[0];
        n[0] = v == Long.MAX_VALUE ? 0 : v + 1;
        return v;
    }

    /** Number of flows counted. */
    public synchronized int flows() {
        return next.size();
    }
}
