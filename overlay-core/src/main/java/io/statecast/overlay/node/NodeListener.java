package io.statecast.overlay.node;

/**
 * Learns about changes of an {@link OverlayNode}'s view. Called on the node's protocol thread
 * (its timer service) after a new {@link Topology} has been published: implementations must
 * return quickly and never block; anything slow goes to their own executor.
 */
@FunctionalInterface
public interface NodeListener {

    /**
     * The node published a new snapshot: its neighbours, trees or state changed.
     *
     * @param previous the snapshot before the change
     * @param current  the snapshot now published
     */
    void onTopologyChanged(Topology previous, Topology current);
}
