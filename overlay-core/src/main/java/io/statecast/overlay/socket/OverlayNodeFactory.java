package io.statecast.overlay.socket;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.node.NodeEnvironment;
import io.statecast.overlay.node.OverlayNode;

/**
 * Builds the overlay node of one {@link NodeType}. The socket picks the factory by
 * {@link OverlayConfig#node()}; {@link OverlayNodeFactories} holds the built-in ones, and a socket
 * builder may register others ({@link OverlaySocket.Builder#nodeFactory}).
 */
@FunctionalInterface
public interface OverlayNodeFactory {

    /**
     * @param config  the validated configuration
     * @param address the node's logical address, already resolved from the configuration (of the
     *                family the node type uses)
     * @param env     transport, local substrate addresses, timers and randomness
     * @return a node in state {@code STOPPED}
     */
    OverlayNode create(OverlayConfig config, LogicalAddress address, NodeEnvironment env);
}
