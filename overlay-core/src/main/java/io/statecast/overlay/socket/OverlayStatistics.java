package io.statecast.overlay.socket;

import io.statecast.overlay.forward.ForwardingStatistics;
import io.statecast.overlay.node.NodeState;
import java.util.Map;

/**
 * A snapshot of a socket's counters.
 *
 * @param state      the node's state
 * @param neighbours how many neighbours it has
 * @param forwarding the forwarding engine's counters (received, delivered, transmissions, drops by cause)
 * @param node       the overlay node's protocol counters by name
 * @param queued     messages waiting in the receive queue
 */
public record OverlayStatistics(
        NodeState state, int neighbours, ForwardingStatistics forwarding, Map<String, Long> node, int queued) {

    /** Freezes the map. */
    public OverlayStatistics {
        node = Map.copyOf(node);
    }
}
