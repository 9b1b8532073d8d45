package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.node.dt.DelaunayOracle.Triangulation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Points in general position: the local neighbour test against JTS's Delaunay triangulation
 * (an implementation that shares no code with ours), and the brute-force oracle against JTS.
 */
class DelaunayCrossCheckTest {

    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");
    private static final int SEEDS = SOAK ? 5 : 3;
    /** Nodes whose full local DT (O(N²) each) is computed when N is large. */
    private static final int SAMPLED_NODES = SOAK ? 100 : 10;

    @ParameterizedTest(name = "N={0}, coordinates in [{1}, {2}]")
    @CsvSource({
            "10, 0, 1023",
            "100, 0, 1048575",
            "1000, 0, 1048575",
            "60, -2147483648, 2147483647",
            "300, -2147483648, 2147483647"})
    void localTestShouldReproduceJtsDelaunay(int n, long lo, long hi) {
        crossCheck(n, lo, hi, SEEDS);
    }

    @ParameterizedTest(name = "soak: N={0}")
    @CsvSource({"3000, 0, 16777215", "10000, 0, 16777215"})
    @Tag("soak")
    void localTestShouldReproduceJtsDelaunayForLargeN(int n, long lo, long hi) {
        crossCheck(n, lo, hi, 2);
    }

    private static void crossCheck(int n, long lo, long hi, int seeds) {
        long baseSeed = Long.getLong("statecast.seed", System.nanoTime());
        for (int s = 0; s < seeds; s++) {
            long seed = baseSeed + s;
            Random random = new Random(seed);
            Triangulation jts = generalPosition(random, n, lo, hi);
            String ctx = "seed=" + seed + " (statecast.seed=" + baseSeed + ") N=" + n;
            TriangulationChecks.assertValidTriangulation(jts, ctx, n <= (SOAK ? 1000 : 300));
            // A full local DT costs O(N²): bound the sampled nodes' total to about 5·10⁸ steps.
            int sampled = (int) Math.min(SAMPLED_NODES, Math.max(3, 500_000_000L / ((long) n * n)));
            List<DtAddress> nodes = n <= 100 ? jts.points() : Layouts.sample(jts.points(), Math.min(n, sampled), random);
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
        return fail("no point set in general position after 20 draws");
    }
}
