package io.statecast.services;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.services.testing.SimCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * dup-elim over a DT overlay whose links duplicate 20% of frames: every node delivers every
 * message exactly once, and the copies the stores saw show the spec (not luck) did it.
 */
class DupElimTest {

    private static final int SERVICE = 3;
    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");

    /**
     * Floods. The forwarding engine drops a flood it has seen before on its own, so its flood cache
     * is cut to one entry here: with many floods in flight it forgets, and the copies reach the
     * store, whose duplicate elimination is then all that stops them circulating on the overlay's
     * cycles until their hop limit.
     */
    @Test
    void floodOverDtWithDuplicationShouldDeliverEachMessageOnceAtEveryNode() throws Exception {
        run(DeliveryMode.FLOOD, SOAK ? 60 : 20, SOAK ? 600 : 80);
    }

    /** Multicasts: link duplicates pass the engine (same parent) and only the spec drops them. */
    @Test
    void multicastOverDtWithDuplicationShouldDeliverEachMessageOnceAtEveryNode() throws Exception {
        run(DeliveryMode.MULTICAST, SOAK ? 60 : 20, SOAK ? 600 : 80);
    }

    private static void run(DeliveryMode mode, int n, int messages) throws Exception {
        long seed = SimCluster.seedFromProperty();
        try (SimCluster c = SimCluster.dt(n).seed(seed).service("dup-elim").trace(false)
                .overlayConfig(DupElimTest::tinyFloodCache).build()) {
            c.faultsEverywhere(FaultConfig.NONE.withDuplication(0.2)
                    .withDelay(Duration.ofMillis(1), Duration.ofMillis(4)));
            Random r = new Random(seed);
            Map<Long, Integer> sourceOf = new HashMap<>();
            for (int k = 0; k < messages; k++) {
                int src = r.nextInt(n);
                byte[] payload = ("m" + k).getBytes(UTF_8);
                var m = c.socket(src).createMessage(mode, null, payload, SERVICE);
                sourceOf.put(m.fsm().messageId(), src);
                c.socket(src).send(m);
                c.advance(Duration.ofMillis(1));
            }
            c.await(() -> {
                for (int i = 0; i < n; i++) {
                    if (c.deliveries(i).size() < expected(sourceOf, i)) {
                        return false;
                    }
                }
                return true;
            }, Duration.ofSeconds(10), () -> "every node's deliveries");
            c.advance(Duration.ofSeconds(2)); // late copies, if any, would arrive now
            long arrivals = 0;
            for (int i = 0; i < n; i++) {
                Set<Long> seen = new HashSet<>();
                for (SimCluster.Delivery d : c.deliveries(i)) {
                    assertTrue(seen.add(d.messageId()), "node " + i + " delivered " + d.messageId() + " twice; "
                            + c.describe());
                    assertTrue(sourceOf.get(d.messageId()) != i, "node " + i + " delivered its own message; "
                            + c.describe());
                }
                assertEquals(expected(sourceOf, i), seen.size(), "node " + i + "; " + c.describe());
                CountersSnapshot s = c.metrics(i).services().get(0).counters();
                arrivals += s.messages() + s.drops().getOrDefault(DropReason.TERMINATED_INSTANCE, 0L);
            }
            long firstCopies = (long) n * messages;
            assertTrue(arrivals > firstCopies, "duplicates must reach the stores for the test to mean anything: "
                    + arrivals + " arrivals for " + firstCopies + " first copies; " + c.describe());
            assertEquals(0, c.liveInstances(), "every instance ends after DeleteTimeout; " + c.describe());
        }
    }

    private static int expected(Map<Long, Integer> sourceOf, int node) {
        int e = 0;
        for (int src : sourceOf.values()) {
            e += src == node ? 0 : 1;
        }
        return e;
    }

    private static OverlayConfig tinyFloodCache(OverlayConfig c) {
        return new OverlayConfig(c.id(), c.node(), c.address(), c.addressFrame(), c.interfaces(), c.buddies(),
                c.heartbeat(), c.rendezvous(), c.tree(),
                new OverlayConfig.Forwarding(c.forwarding().hopLimit(), 1), c.buffers(), c.join(), c.messageStore());
    }

}
