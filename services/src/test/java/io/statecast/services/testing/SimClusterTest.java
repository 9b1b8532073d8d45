package io.statecast.services.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.TreeAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cluster itself: shapes settle, a spec loads from the classpath, deliveries and traces are recorded. */
class SimClusterTest {

    @Test
    void chainShouldBeAPathAndDeliverAMulticastOnceEverywhere() throws Exception {
        try (SimCluster c = SimCluster.chain(6).service("sim-probe").build()) {
            for (int i = 0; i < 6; i++) {
                assertEquals(new TreeAddress(i + 1), c.address(i), c.describe());
                List<Integer> children = c.tree(0).get(i);
                assertEquals(i == 5 ? List.of() : List.of(i + 1), children, () -> "the tree from node 0 is the chain; "
                        + c.describe());
            }
            c.socket(0).sendToAll("hello".getBytes(UTF_8), 900);
            c.await(() -> c.deliveries(5).size() == 1, Duration.ofSeconds(1), () -> "the far end's delivery");
            for (int i = 1; i < 6; i++) {
                assertEquals(1, c.deliveries(i).size(), c.describe());
                assertEquals(c.address(0), c.deliveries(i).get(0).source());
            }
            assertEquals(0, c.deliveries(0).size(), "the source's own application sees nothing; " + c.describe());
            assertEquals(0, c.liveInstances(), c.describe());
            assertTrue(c.trace(3).stream().anyMatch(t -> t.direction() == SimCluster.Direction.IN), c.describe());
        }
    }

    @Test
    void dtShouldSettleIntoSpanningTreesAndDeliverToAll() throws Exception {
        try (SimCluster c = SimCluster.dt(20).service("sim-probe").trace(false).build()) {
            int root = 7;
            c.socket(root).sendToAll("x".getBytes(UTF_8), 900);
            c.await(() -> {
                for (int i = 0; i < c.size(); i++) {
                    if (i != root && c.deliveries(i).size() != 1) {
                        return false;
                    }
                }
                return true;
            }, Duration.ofSeconds(2), () -> "every node's delivery");
            assertEquals(0, c.liveInstances(), c.describe());
            assertTrue(c.trace(0).isEmpty(), "tracing off");
        }
    }
}
