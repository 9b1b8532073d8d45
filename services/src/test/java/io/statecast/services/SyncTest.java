package io.statecast.services;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.SubstrateAddress;
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
 * sync: a node cut off while messages were multicast (and the nodes behind it in the source's
 * tree) catches up once it is reachable again, each message delivered exactly once, with the
 * original MessageIdentifier and payload; after Retention no instance remains.
 */
class SyncTest {

    private static final int SERVICE = 5;
    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");

    @Test
    void nodeThatMissedMessagesWhileCutOffShouldCatchUpAfterItIsHealed() throws Exception {
        long seed = SimCluster.seedFromProperty();
        int n = SOAK ? 30 : 8;
        int messages = SOAK ? 200 : 20;
        try (SimCluster c = SimCluster.dt(n).seed(seed).service("sync").trace(false).build()) {
            Random r = new Random(seed);
            int source = r.nextInt(n);
            int cut = (source + 1 + r.nextInt(n - 1)) % n;
            c.blackhole(cut);
            Map<Long, Integer> payloadHash = new HashMap<>();
            for (int k = 0; k < messages; k++) {
                byte[] p = ("sync " + k).getBytes(UTF_8);
                var m = c.socket(source).createMessage(io.statecast.overlay.message.DeliveryMode.MULTICAST, null, p,
                        SERVICE);
                payloadHash.put(m.fsm().messageId(), java.util.Arrays.hashCode(p));
                c.socket(source).send(m);
                c.advance(Duration.ofMillis(20));
            }
            c.advance(Duration.ofSeconds(2));
            assertEquals(0, c.deliveries(cut).size(), "the cut-off node got nothing yet; " + c.describe());
            c.faults().liftNode(SubstrateAddress.mem("n" + cut));
            long healedAt = c.clock().nanoTime();
            c.await(() -> {
                for (int i = 0; i < n; i++) {
                    if (i != source && c.deliveries(i).size() < messages) {
                        return false;
                    }
                }
                return true;
            }, Duration.ofSeconds(25), () -> "every node to have every message (node " + cut + " was cut off)");
            long caughtUpMs = Duration.ofNanos(c.clock().nanoTime() - healedAt).toMillis();
            c.advance(Duration.ofSeconds(3));
            for (int i = 0; i < n; i++) {
                if (i == source) {
                    assertEquals(0, c.deliveries(i).size(), "the source's application gets nothing back; " + c.describe());
                    continue;
                }
                Set<Long> seen = new HashSet<>();
                for (SimCluster.Delivery d : c.deliveries(i)) {
                    assertTrue(seen.add(d.messageId()), "node " + i + " delivered " + d.messageId() + " twice; "
                            + c.describe());
                    assertEquals(payloadHash.get(d.messageId()), d.payloadHash(), "node " + i + ": payload of "
                            + d.messageId() + "; " + c.describe());
                }
                assertEquals(payloadHash.keySet(), seen, "node " + i + "; " + c.describe());
            }
            assertTrue(caughtUpMs < 25_000, "caught up " + caughtUpMs + " ms after the heal");
            // Retention (30 s) after the last node got its last copy, every instance has ended
            c.await(() -> c.liveInstances() == 0, Duration.ofSeconds(40), () -> "every instance to end");
        }
    }

    @Test
    void lostCopiesShouldBeRepairedFromNeighboursUnderLoss() throws Exception {
        long seed = SimCluster.seedFromProperty();
        int n = SOAK ? 30 : 8;
        int messages = SOAK ? 200 : 20;
        try (SimCluster c = SimCluster.dt(n).seed(seed).service("sync").trace(false).build()) {
            c.faultsEverywhere(FaultConfig.loss(0.2));
            int source = new Random(seed).nextInt(n);
            for (int k = 0; k < messages; k++) {
                c.socket(source).sendToAll(("lossy " + k).getBytes(UTF_8), SERVICE);
                c.advance(Duration.ofMillis(20));
            }
            c.await(() -> {
                for (int i = 0; i < n; i++) {
                    if (i != source && c.deliveries(i).size() < messages) {
                        return false;
                    }
                }
                return true;
            }, Duration.ofSeconds(25), () -> "every node to have every message at 20% loss");
            c.advance(Duration.ofSeconds(2));
            for (int i = 0; i < n; i++) {
                Set<Long> seen = new HashSet<>();
                for (SimCluster.Delivery d : c.deliveries(i)) {
                    assertTrue(seen.add(d.messageId()), "node " + i + " delivered twice; " + c.describe());
                }
                assertEquals(i == source ? 0 : messages, seen.size(), "node " + i + "; " + c.describe());
            }
        }
    }
}
