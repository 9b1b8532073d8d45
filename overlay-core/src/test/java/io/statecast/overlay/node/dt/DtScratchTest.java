package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.sim.DelaunayCheck;
import io.statecast.overlay.sim.DtSimulation;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DtScratchTest {
    @Test
    void scratch() {
        int n = Integer.getInteger("n", 100);
        long seed = Long.getLong("statecast.seed", 1);
        try (DtSimulation sim = new DtSimulation(seed)) {
            List<DtAddress> pts = DelaunayOracle.randomPoints(new Random(seed), n, 0, 10000);
            sim.addAll(pts, 2);
            sim.joinAll();
            long t0 = System.nanoTime();
            boolean q = sim.runUntil(sim::quiescent, Duration.ofSeconds(300), Duration.ofMillis(250));
            System.out.println("quiescent=" + q + " lastChange=" + sim.lastNeighbourChangeNanos() / 1_000_000 + "ms now="
                    + sim.clock().nanoTime() / 1_000_000 + " wall=" + (System.nanoTime() - t0) / 1_000_000 + "ms changes=" + sim.neighbourChanges());
            var r = DelaunayCheck.check(sim.points(), sim.neighbourGraph());
            System.out.println(r);
            var o = DelaunayOracle.jts(pts);
            System.out.println("oracle edges " + o.edges().size());
            if (!q) System.out.println(sim.describe());
        }
    }
}
