package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.services.testing.SimCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The end-to-end acknowledgement service ({@code services/e2e-ack.scxml}) under loss, on whole
 * nodes ({@link SimCluster}). What the source's application hears is the service's report: one
 * control message per sent message, type {@value #FULL_ACK} (Full ACK: every node of the tree has
 * it) or {@value #RESET} (the source gave up), and type {@value #PARTIAL_ACK} for each Partial ACK
 * a waiting child sent.
 *
 * <p>The default run sends a few hundred messages; {@code -Psoak} sends 10,000.
 */
class E2eAckTest {

    static final int SERVICE = 2;
    static final byte RESET = 4;
    static final byte FULL_ACK = 5;
    static final byte PARTIAL_ACK = 6;
    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");
    /** Longest life of an instance with the spec's defaults (maxACK + Msg, maxNACK + maxRST), with margin. */
    private static final Duration DRAIN = Duration.ofSeconds(90);

    @Test
    void chainSourceShouldGetAFullAckForEveryMessageAt5PercentLoss() throws Exception {
        try (SimCluster c = SimCluster.chain(6).service("e2e-ack").trace(false).build()) {
            runFullAcks(c, 0, SOAK ? 10_000 : 500, 0.05);
        }
    }

    @Test
    void dtSourceShouldGetAFullAckForEveryMessageAt5PercentLoss() throws Exception {
        try (SimCluster c = SimCluster.dt(50).service("e2e-ack").build()) {
            runFullAcks(c, new Random(c.seed()).nextInt(c.size()), SOAK ? 10_000 : 200, 0.05);
        }
    }

    @Test
    void aBlackholedLeafShouldGivePartialAcksThenTheResetPathWithoutLeaks() throws Exception {
        try (SimCluster c = SimCluster.chain(6).service("e2e-ack").build()) {
            c.faultsEverywhere(FaultConfig.loss(0.05));
            c.blackhole(5);
            int n = 10;
            Traffic.Sent sent = Traffic.send(c, SERVICE, 0, DeliveryMode.MULTICAST, null, n);
            c.await(() -> reports(c, 0, RESET).size() == n, Duration.ofSeconds(45), () -> "a Reset report per message");
            Map<Long, Integer> partial = reports(c, 0, PARTIAL_ACK);
            Map<Long, Integer> resets = reports(c, 0, RESET);
            for (long id : sent.hashes().keySet()) {
                assertTrue(partial.getOrDefault(id, 0) >= 2, () -> "Partial ACKs for " + id + " while node 4 waits for"
                        + " its silent leaf: " + partial + "; " + c.describe());
                assertEquals(1, resets.get(id), () -> "one Reset report for " + id + "; " + c.describe());
                long lastPartial = lastReport(c, 0, id, PARTIAL_ACK);
                long reset = lastReport(c, 0, id, RESET);
                assertTrue(lastPartial < reset, () -> "Partial ACKs come before the reset; " + c.describe());
            }
            assertEquals(Map.of(), reports(c, 0, FULL_ACK), "no Full ACK: node 5 never had the messages; " + c.describe());
            for (int i = 1; i < 5; i++) {
                Traffic.assertExactlyOnce(c, i, 0, sent);
            }
            H2hAckTest.assertDrains(c, SERVICE, DRAIN);
            for (int i = 0; i < 5; i++) {
                CountersSnapshot s = c.metrics(i).service(SERVICE).counters();
                assertEquals(n, s.terminated(), "node " + i + " ends every instance on the reset path; " + c.describe());
            }
            assertEquals(0, c.metrics(5).node().created(), "the blackholed leaf saw nothing; " + c.describe());
        }
    }

    @Test
    void withoutRequireAllReceiversANackIsNotAnsweredAndTheSourceIsToldOfTheReset() throws Exception {
        try (SimCluster c = SimCluster.chain(3).service("e2e-ack", Map.of("RequireAllReceivers", "false",
                "TimeoutMaxACK", "3000", "TimeoutMaxNACK", "3000", "TimeoutMsg", "4000")).build()) {
            // node 1 never gets the payload from node 0 (but control messages pass)
            c.faultsOnLink(0, 1, FaultConfig.NONE);
            int n = 5;
            for (int k = 0; k < n; k++) {
                c.faultsOnLink(0, 1, FaultConfig.loss(1.0));
                long id = Traffic.send(c, SERVICE, 0, DeliveryMode.MULTICAST, null, 1).hashes().keySet().iterator().next();
                c.faultsOnLink(0, 1, FaultConfig.NONE);
                c.await(() -> reports(c, 0, RESET).containsKey(id), Duration.ofSeconds(10), () -> "the reset of " + id);
                assertTrue(c.trace(0).stream().anyMatch(t -> t.direction() == SimCluster.Direction.IN
                        && t.messageType() == 1 && t.messageId() == id), () -> "node 1 NACKed; " + c.describe());
                long forwards = c.trace(0).stream().filter(t -> t.direction() == SimCluster.Direction.FORWARD
                        && t.messageId() == id).count();
                assertEquals(1, forwards, () -> "the first send only, no retransmission; " + c.describe());
            }
            assertEquals(0, c.deliveries(1).size() + c.deliveries(2).size(), c.describe());
            H2hAckTest.assertDrains(c, SERVICE, DRAIN);
        }
    }

    // ------------------------------------------------------------------ the scenario

    private static void runFullAcks(SimCluster c, int source, int n, double loss) {
        c.faultsEverywhere(FaultConfig.loss(loss));
        Map<Integer, List<Integer>> tree = c.tree(source);
        Traffic.Sent sent = Traffic.send(c, SERVICE, source, DeliveryMode.MULTICAST, null, n);
        c.await(() -> reports(c, source, FULL_ACK).size() + reports(c, source, RESET).size() == n,
                Duration.ofSeconds(60), () -> "a report for each of " + n + " messages at the source");
        Map<Long, Integer> full = reports(c, source, FULL_ACK);
        assertEquals(Map.of(), reports(c, source, RESET), () -> "no message was reset; the source (n" + source + ", "
                + tree.get(source).size() + " children) reset " + resetTimes(c, source) + "; tree unchanged: "
                + tree.equals(c.tree(source)) + "; evictions per node: " + evictions(c) + "\n" + story(c, tree,
                resetTimes(c, source).keySet()) + c.describe());
        assertEquals(sent.hashes().keySet(), full.keySet(), () -> "a Full ACK for every message; " + c.describe());
        assertTrue(full.values().stream().allMatch(v -> v == 1), () -> "exactly one Full ACK each; " + c.describe());
        for (int i = 0; i < c.size(); i++) {
            if (i != source) {
                Traffic.assertExactlyOnce(c, i, source, sent);
            }
        }
        H2hAckTest.assertDrains(c, SERVICE, DRAIN);
        System.out.printf("e2e-ack: %d nodes, %d multicasts of 1 KB at %.0f%% loss: a Full ACK for each at the source, "
                + "every receiver delivered each once; seed %d%n", c.size(), n, loss * 100, c.seed());
    }

    private static Map<Long, Long> resetTimes(SimCluster c, int node) {
        Map<Long, Long> out = new HashMap<>();
        for (SimCluster.Delivery d : c.deliveries(node)) {
            if (d.messageType() == RESET) {
                out.put(d.messageId(), d.atNanos() / 1_000_000);
            }
        }
        return out;
    }

    /** What crossed each store for the first of {@code ids} (for a failure message), with the tree. */
    private static String story(SimCluster c, Map<Integer, List<Integer>> tree, java.util.Set<Long> ids) {
        if (ids.isEmpty()) {
            return "";
        }
        long id = ids.iterator().next();
        StringBuilder b = new StringBuilder("message " + id + ", tree " + tree + ":\n");
        for (int i = 0; i < c.size(); i++) {
            b.append("  n").append(i).append(':');
            for (SimCluster.Traced t : c.trace(i)) {
                if (t.messageId() == id) {
                    b.append(' ').append(t.atNanos() / 1_000_000).append(t.direction().name().charAt(0))
                            .append(t.messageType() & 0xff).append('@').append(c.indexOf(t.peer()));
                }
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static Map<Integer, Long> evictions(SimCluster c) {
        Map<Integer, Long> out = new HashMap<>();
        for (int i = 0; i < c.size(); i++) {
            long e = c.metrics(i).service(SERVICE).counters().historyEvicted();
            if (e > 0) {
                out.put(i, e);
            }
        }
        return out;
    }

    /** Control messages of {@code type} node {@code node}'s application got: MessageID → count. */
    static Map<Long, Integer> reports(SimCluster c, int node, byte type) {
        Map<Long, Integer> out = new HashMap<>();
        for (SimCluster.Delivery d : c.deliveries(node)) {
            if (d.messageType() == type) {
                out.merge(d.messageId(), 1, Integer::sum);
            }
        }
        return out;
    }

    private static long lastReport(SimCluster c, int node, long id, byte type) {
        List<SimCluster.Delivery> ds = c.deliveries(node);
        for (int i = ds.size() - 1; i >= 0; i--) {
            if (ds.get(i).messageId() == id && ds.get(i).messageType() == type) {
                return ds.get(i).atNanos();
            }
        }
        return -1;
    }
}
