package io.statecast.overlay.sim;

/**
 * What one run of the DT simulation ({@link DtSimRun}) found; written as JSON by
 * {@code statecast sim --json}.
 *
 * @param nodes            nodes simulated
 * @param seed             the seed (replays the run)
 * @param loss             probability that a frame is lost
 * @param converged        every node settled (STABLE, relations mutual) with exactly one leader
 *                         before the virtual-time limit
 * @param matchesOracle    the neighbour graph is the Delaunay triangulation of the points
 *                         ({@link DelaunayCheck}, independent of the protocol's neighbour test)
 * @param oracleProblem    the first difference from the triangulation, or {@code null}
 * @param rounds           fast heartbeats until the last neighbour change
 *                         ({@code ceil(virtualTimeMs / fastMs)})
 * @param virtualTimeMs    virtual time from the mass join to the last change of any neighbour set
 * @param detectedAtMs     virtual time at which convergence was detected (the last change plus
 *                         the heartbeats needed to report STABLE)
 * @param edges            edges of the overlay
 * @param hullNodes        nodes on the hull boundary (h in E = 3N − 3 − h)
 * @param leaders          nodes that consider themselves leader
 * @param maxDegree        largest number of neighbours
 * @param avgDegree        mean number of neighbours
 * @param treeRoots        random roots whose compass trees were examined
 * @param treesConsistent  in every examined tree all nodes reach the root through parents and
 *                         each node's children are exactly the neighbours that chose it as parent
 * @param maxDepth         largest depth of a node in an examined tree
 * @param avgDepth         mean depth over all nodes of the examined trees
 * @param protocolMessages protocol messages the nodes sent until convergence was detected
 * @param wallMs           wall-clock time of the simulation (not the checks)
 */
public record SimReport(
        int nodes,
        long seed,
        double loss,
        boolean converged,
        boolean matchesOracle,
        String oracleProblem,
        long rounds,
        long virtualTimeMs,
        long detectedAtMs,
        int edges,
        int hullNodes,
        long leaders,
        int maxDegree,
        double avgDegree,
        int treeRoots,
        boolean treesConsistent,
        int maxDepth,
        double avgDepth,
        long protocolMessages,
        long wallMs) {

    /** Whether the run succeeded: converged and equal to the triangulation. */
    public boolean ok() {
        return converged && matchesOracle;
    }
}
