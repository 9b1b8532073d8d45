package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangulation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Points in general position: the local neighbour test against JTS's Delaunay triangulation
 * (an implementation that shares no code with ours), and the brute-force oracle against JTS.
 */
class DelaunayCrossCheckTest {

    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");
    private static final int SEEDS = SOAK ? 10 : 3;
    /** Nodes whose full local DT (O(N²) each) is computed when N is large. */
    private static final int SAMPLED_NODES = SOAK ? Integer.MAX_VALUE : 10;

    @ParameterizedTest(name = "N={0}, coordinates in [{1}, {2}]")
    @CsvSource({
            "10, 0, 1023",
            "100, 0, 1048575",
            "1000, 0, 1048575",
            "60, -2147483648, 2147483647",
            "300, -2147483648, 2147483647"})
    void localTestShouldReproduceJtsDelaunay(int n, long lo, long hi) {
        long baseSeed = Long.getLong("statecast.seed", System.nanoTime());
        for (int s = 0; s < SEEDS; s++) {
            long seed = baseSeed + s;
            Random random = new Random(seed);
            Triangulation jts = generalPosition(random, n, lo, hi);
            String ctx = "seed=" + seed + " (statecast.seed=" + baseSeed + ") N=" + n;
            TriangulationChecks.assertValidTriangulation(jts, ctx, n <= 300);
            List<DtAddress> nodes = n <= 100 ? jts.points()
                    : Layouts.sample(jts.points(), Math.min(n, SAMPLED_NODES), random);
            TriangulationChecks.assertLocalTestMatches(jts, nodes, ctx);
            TriangulationChecks.assertSingleLeader(jts, ctx);
            if (n <= 100 && (s == 0 || SOAK)) {
                TriangulationChecks.assertSameEdges(jts.edges(), DelaunayOracle.bruteForce(jts.points()).edges(),
                        "brute force vs JTS; " + ctx);
            }
        }
    }

    /**
     * Random points whose Delaunay triangulation is unique (no interior edge with four exactly
     * cocircular points), drawing again from the same generator in the rare other case.
     */
    static Triangulation generalPosition(Random random, int n, long lo, long hi) {
        for (int attempt = 0; attempt < 20; attempt++) {
            Triangulation t = DelaunayOracle.jts(DelaunayOracle.randomPoints(random, n, lo, hi));
            if (DelaunayOracle.uniquelyDelaunay(t)) {
                return t;
            }
        }
        assertTrue(false, "no point set in general position after 20 draws");
        throw new AssertionError();
    }
}
