package io.statecast.messagestore.tools.scenario;

import io.statecast.overlay.address.LogicalAddress;
import java.util.List;
import java.util.Map;

/**
 * The node a scenario runs on: what {@code updateNodeInfo} records and where the forwarding
 * primitives would send.
 *
 * @param address    this node's logical address
 * @param parent     its parent in every tree not listed in {@code trees} ({@code null}: it is the root)
 * @param children   its children in every tree not listed in {@code trees}
 * @param trees      per tree root, the parent and children in that tree
 * @param neighbours its neighbours; {@code null} means every parent and child named
 * @param rtt        measured round-trip times in ms (SRTT; RTTVAR 0) per neighbour, as the overlay's
 *                   heartbeats would give them ({@code $_x?rtt}); neighbours not named have none
 */
public record NodeSetup(LogicalAddress address, LogicalAddress parent, List<LogicalAddress> children,
        Map<LogicalAddress, Tree> trees, List<LogicalAddress> neighbours, Map<LogicalAddress, Double> rtt) {

    /** The node's place in one tree. */
    public record Tree(LogicalAddress parent, List<LogicalAddress> children) {

        /** Copies the list. */
        public Tree {
            children = List.copyOf(children);
        }
    }

    /** Copies the collections. */
    public NodeSetup {
        children = List.copyOf(children);
        trees = Map.copyOf(trees);
        neighbours = neighbours == null ? null : List.copyOf(neighbours);
        rtt = Map.copyOf(rtt);
    }
}
