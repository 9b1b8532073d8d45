package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.services.testing.SimCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * fec-multicast on whole simulated nodes: one source and 16 receivers on a Delaunay overlay, 1 ms
 * per link, random loss on every link. Every receiver delivers every message exactly once and
 * intact; at 1 % loss FEC (lateral repairs, and messages a parent rebuilt and sent down its
 * subtree) recovers at least 90 % of the losses, the rest coming from NAK repairs. Seeded
 * ({@code -Dstatecast.seed=}); every assertion message starts with the seed.
 */
class FecMulticastTest {

    private static final int SERVICE = 13;
    private static final int RECEIVERS = 16;

    @Test
    void atOnePercentLossEveryMessageShouldArriveOnceAndFecShouldRecoverMostLosses() throws Exception {
        Outcome o = run(0.01, 1000, SimCluster.seedFromProperty());
        assertTrue(o.losses() > 0, o + "; the run lost something");
        assertTrue(o.fec() >= 0.9 * o.losses(), "FEC recovers at least 90 % of the losses: " + o);
    }

    @Test
    void atFivePercentLossEveryMessageShouldArriveOnce() throws Exception {
        Outcome o = run(0.05, 500, SimCluster.seedFromProperty());
        assertTrue(o.fec() > 0, "FEC recovers some of the losses at 5 % too: " + o);
    }

    /** What a run's receivers report, from the field how of their deliveries (1 FEC, 2 NAK repair). */
    record Outcome(String seed, long delivered, long losses, long fec, long nak, long p50Ms, long p99Ms, long fecP99Ms,
            long fecP99BeyondMs) {
        @Override
        public String toString() {
            return seed + ": delivered " + delivered + ", losses " + losses + ", recovered by FEC " + fec + " ("
                    + (losses == 0 ? 0 : 100 * fec / losses) + " %), by NAK " + nak + ", recovery latency p50 " + p50Ms
                    + " ms p99 " + p99Ms + " ms (FEC p99 " + fecP99Ms + " ms, " + fecP99BeyondMs
                    + " ms beyond the receiver's delay for a message not lost)";
        }
    }

    /**
     * Node 0 multicasts {@code n} messages, one a millisecond; checks exactly once and intact, and
     * counts. At 1,000 messages a second the source must keep a message longer than a NAK and its
     * repair can take to fail and be asked again (two NakDelays and a few round trips, some 70 ms):
     * Buffer 256 (in a history of 512) rather than the default 64, which lasts 64 ms here. The
     * receivers' instances make about four primitive calls a message, above the default rate.
     */
    private static Outcome run(double loss, int n, long seed) throws Exception {
        try (SimCluster c = SimCluster.dt(RECEIVERS + 1).seed(seed).service("fec-multicast", Map.of("Buffer", "256"))
                .storeConfig(s -> s.withInstances(s.instances().withPrimitiveRate(4000, 40_000).withHistoryEntries(512)))
                .build()) {
            c.faultsEverywhere(FaultConfig.loss(loss).withDelay(Duration.ofMillis(1), Duration.ofMillis(1)));
            Random random = new Random(c.seed() ^ 0x666563L);
            List<Long> ids = new ArrayList<>();
            Map<Long, Integer> hashes = new HashMap<>();
            Map<Long, Long> sentAt = new HashMap<>();
            for (int k = 0; k < n; k++) {
                byte[] payload = new byte[32 + random.nextInt(400)];
                random.nextBytes(payload);
                OverlayMessage m = c.socket(0).createMessage(DeliveryMode.MULTICAST, null, payload, SERVICE);
                ids.add(m.fsm().messageId());
                hashes.put(m.fsm().messageId(), Arrays.hashCode(payload));
                sentAt.put(m.fsm().messageId(), c.clock().nanoTime());
                c.socket(0).send(m);
                c.advance(Duration.ofMillis(1));
            }
            LogicalAddress source = c.address(0);
            c.await(() -> {
                for (int node = 1; node < c.size(); node++) {
                    if (delivered(c, node, source).size() < n) {
                        return false;
                    }
                }
                return true;
            }, Duration.ofSeconds(30), () -> "every receiver has every message:" + progress(c, source, n));
            long losses = 0;
            long fec = 0;
            long nak = 0;
            long total = 0;
            List<Long> latency = new ArrayList<>();
            List<Long> fecLatency = new ArrayList<>();
            List<Long> fecBeyond = new ArrayList<>();
            for (int node = 1; node < c.size(); node++) {
                List<SimCluster.Delivery> got = delivered(c, node, source);
                // this receiver's own delay for a message that was not lost (its depth in the
                // source's tree, a millisecond a link): what a recovery adds is beyond it
                long own = got.stream().filter(d -> d.fields().get("how") == null)
                        .mapToLong(d -> d.atNanos() - sentAt.get(d.messageId())).min().orElse(0);
                List<Long> gotIds = got.stream().map(SimCluster.Delivery::messageId).sorted().toList();
                assertEquals(ids.stream().sorted().toList(), gotIds, c.describe() + ": node " + node
                        + " delivers every message exactly once");
                for (SimCluster.Delivery d : got) {
                    total++;
                    assertEquals(hashes.get(d.messageId()), d.payloadHash(), c.describe() + ": node " + node
                            + " message " + d.messageId() + " intact (how " + d.fields().get("how") + ")");
                    MessageField how = d.fields().get("how");
                    if (how != null) {
                        losses++;
                        long ms = (d.atNanos() - sentAt.get(d.messageId())) / 1_000_000;
                        latency.add(ms);
                        if (how.equals(new MessageField.Int(1))) {
                            fec++;
                            fecLatency.add(ms);
                            fecBeyond.add((d.atNanos() - sentAt.get(d.messageId()) - own) / 1_000_000);
                        } else {
                            nak++;
                        }
                    }
                }
            }
            for (int node = 0; node < c.size(); node++) {
                assertEquals(0, c.metrics(node).node().drops(io.statecast.messagestore.metrics.DropReason.THROTTLED),
                        c.describe() + ": node " + node + ": no message refused for the store's rate");
                assertEquals(0, c.metrics(node).node().actions(ActionOutcome.FAILED),
                        c.describe() + ": node " + node + ": no failed primitive call");
            }
            Outcome o = new Outcome("seed=" + c.seed(), total, losses, fec, nak, percentile(latency, 50), percentile(latency, 99),
                    percentile(fecLatency, 99), percentile(fecBeyond, 99));
            System.out.println("fec-multicast loss " + loss + ": " + o);
            return o;
        }
    }

    private static long percentile(List<Long> values, int p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> s = values.stream().sorted().toList();
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(p / 100.0 * s.size()) - 1));
    }

    private static List<SimCluster.Delivery> delivered(SimCluster c, int node, LogicalAddress source) {
        List<SimCluster.Delivery> out = new ArrayList<>();
        for (SimCluster.Delivery d : c.deliveries(node)) {
            if (d.source().equals(source) && d.messageType() == FsmExtension.PAYLOAD_TYPE) {
                out.add(d);
            }
        }
        return out;
    }

    private static String progress(SimCluster c, LogicalAddress source, int n) {
        StringBuilder b = new StringBuilder();
        for (int node = 1; node < c.size(); node++) {
            b.append(" node ").append(node).append(' ').append(delivered(c, node, source).size()).append('/').append(n);
        }
        return b.toString();
    }
}
