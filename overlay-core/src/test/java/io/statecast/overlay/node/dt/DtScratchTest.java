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
      for (long seed = Long.getLong("statecast.seed", 1); seed < Long.getLong("statecast.seed", 1) + Integer.getInteger("seeds", 1); seed++) {
        try (DtSimulation sim = new DtSimulation(seed)) {
            List<DtAddress> pts = DelaunayOracle.randomPoints(new Random(seed), n, 0, 10000);
            double loss = Double.parseDouble(System.getProperty("loss", "0"));
            long delay = Long.getLong("delay", 0);
            sim.network().faults().configure(io.statecast.overlay.substrate.FaultConfig.loss(loss).withDelay(Duration.ofMillis(delay), Duration.ofMillis(delay)));
            sim.addAll(pts, 2);
            sim.joinAll();
            long t0 = System.nanoTime();
            boolean q = sim.runUntil(() -> sim.quiescent() && sim.alive().stream().filter(x -> x.topology().leader()).count() == 1, Duration.ofSeconds(300), Duration.ofMillis(250));
            System.out.println("quiescent=" + q + " lastChange=" + sim.lastNeighbourChangeNanos() / 1_000_000 + "ms now="
                    + sim.clock().nanoTime() / 1_000_000 + " wall=" + (System.nanoTime() - t0) / 1_000_000 + "ms changes=" + sim.neighbourChanges());
            java.util.Map<String, Long> tot = new java.util.TreeMap<>();
            sim.alive().forEach(x -> x.node().counters().forEach((k, v) -> tot.merge(k, v, Long::sum)));
            System.out.println(tot);
            var r = DelaunayCheck.check(sim.points(), sim.neighbourGraph());
            System.out.println(r);
            var o = DelaunayOracle.jts(pts);
            System.out.println("oracle edges " + o.edges().size());
            if (!q || !r.matches()) {
                var on = o.neighbours();
                var g = sim.neighbourGraph();
                for (var e : o.edges()) if (!g.get(e.a()).contains(e.b())) System.out.println("missing " + e);
                for (var k : g.keySet()) for (var j : g.get(k)) if (!on.get(k).contains(j)) System.out.println("extra " + k + "-" + j);
                long leaders = sim.alive().stream().filter(x -> x.topology().leader()).count();
                System.out.println("leaders=" + leaders);
                if (Boolean.getBoolean("describe")) System.out.println(sim.describe());
            }
        }
      }
    }
}
