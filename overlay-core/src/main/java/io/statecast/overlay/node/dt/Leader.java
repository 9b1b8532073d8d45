package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;

import java.util.Collection;
import java.util.Objects;

/**
 * The leader rule of the DT overlay: a node is a leader iff none of its neighbours has a greater
 * address in {@linkplain Predicates#LEXICOGRAPHIC lexicographic order} (x, then y). A connected,
 * converged triangulation has exactly one leader, the lexicographic maximum m: from any other
 * node k the ray k→m leaves k inside one triangle (or along one edge) of k's star, and since m is
 * greater than k in the order (a linear order along the direction (1, δ) for infinitesimal δ),
 * so is a corner of that triangle. Hence k components have k leaders.
 */
public final class Leader {

    private Leader() {
    }

    /** Whether k is a leader given its neighbours; a node without neighbours is its own leader. */
    public static boolean isLeader(DtAddress k, Collection<DtAddress> neighbours) {
        Objects.requireNonNull(k, "k");
        for (DtAddress m : neighbours) {
            if (Predicates.compareLexicographic(m, k) > 0) {
                return false;
            }
        }
        return true;
    }
}
