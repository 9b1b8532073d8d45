package io.statecast.services;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.services.testing.SimCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * best-effort-ordering: per source, the application sees strictly increasing MessageIdentifiers;
 * without loss it sees every message; a hole is skipped after Wait or when BufferSize messages
 * wait; a long flow neither grows its history nor restarts.
 */
class BestEffortOrderingTest {

    private static final int SERVICE = 4;
    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");
    /** Frames held back up to 50 ms: with a message every 2 ms, a window of about 25 messages per hop. */
    private static final FaultConfig REORDER = FaultConfig.NONE.withReordering(0.3, Duration.ofMillis(50))
            .withDelay(Duration.ofMillis(1), Duration.ofMillis(3));

    @Test
    void reorderingAndFivePercentLossShouldLeaveEverySourcesDeliveriesStrictlyIncreasing() throws Exception {
        Result r = multicast(REORDER.withLoss(0.05));
        int least = Integer.MAX_VALUE;
        for (int node = 0; node < r.c.size(); node++) {
            for (int src : r.sources) {
                if (src != node) {
                    List<Long> got = r.delivered(node, src);
                    assertStrictlyIncreasing(got, "node " + node + " from " + src + "; " + r.c.describe());
                    least = Math.min(least, got.size());
                }
            }
        }
        assertTrue(least >= r.perSource / 2, "a node delivered only " + least + " of " + r.perSource
                + " (5% loss per link should lose far fewer); " + r.c.describe());
        assertTrue(r.reorderedArrivals() > 0, "the faults must reorder arrivals for the test to mean anything; "
                + r.c.describe());
    }

    @Test
    void reorderingWithoutLossShouldDeliverEveryMessageInOrder() throws Exception {
        Result r = multicast(REORDER);
        for (int node = 0; node < r.c.size(); node++) {
            for (int src : r.sources) {
                if (src != node) {
                    List<Long> expected = new ArrayList<>();
                    for (int k = 0; k < r.perSource; k++) {
                        expected.add(r.base[src] + k);
                    }
                    assertEquals(expected, r.delivered(node, src), "node " + node + " from " + src + "; "
                            + r.c.describe());
                }
            }
            CountersSnapshot s = r.c.metrics(node).services().get(0).counters();
            assertEquals(0, s.historyEvicted(), "flows forget what they delivered; nothing is evicted; "
                    + r.c.describe());
            assertTrue(s.created() <= r.sources.size(), "one flow per source, never restarted: " + s.created()
                    + " created at node " + node + "; " + r.c.describe());
        }
        assertTrue(r.reorderedArrivals() > 0, "the faults must reorder arrivals; " + r.c.describe());
    }

    /** Seq 1, 2, 4, 5 on a two-node chain: 1, 2 at once, 4, 5 after Wait; 3 arriving later is dropped. */
    @Test
    void holeShouldBeSkippedAfterWaitAndALateMessageDropped() throws Exception {
        try (SimCluster c = SimCluster.chain(2).service("best-effort-ordering", Map.of("Wait", "500")).build()) {
            for (long seq : new long[] {1, 2}) {
                c.socket(0).send(numbered(c, 0, seq));
            }
            c.await(() -> c.deliveries(1).size() == 2, Duration.ofSeconds(2), () -> "the first two after the start wait");
            long t0 = c.clock().nanoTime();
            for (long seq : new long[] {4, 5}) {
                c.socket(0).send(numbered(c, 0, seq));
            }
            c.advance(Duration.ofMillis(400));
            assertEquals(2, c.deliveries(1).size(), "4 and 5 wait behind the hole; " + c.describe());
            c.await(() -> c.deliveries(1).size() == 4, Duration.ofMillis(200), () -> "the hole skipped after Wait");
            assertTrue(c.clock().nanoTime() - t0 >= Duration.ofMillis(500).toNanos(), c.describe());
            c.socket(0).send(numbered(c, 0, 3));
            c.socket(0).send(numbered(c, 0, 6));
            c.await(() -> c.deliveries(1).size() == 5, Duration.ofMillis(100), () -> "6 right after 5");
            c.advance(Duration.ofSeconds(1));
            assertEquals(List.of(1L, 2L, 4L, 5L, 6L), ids(c.deliveries(1)), c.describe());
        }
    }

    /** With BufferSize 5, the sixth distinct message held makes the flow skip its hole at once. */
    @Test
    void fullBufferShouldSkipTheHoleWithoutWaiting() throws Exception {
        try (SimCluster c = SimCluster.chain(2).service("best-effort-ordering",
                Map.of("Wait", "60000", "BufferSize", "5")).build()) {
            c.socket(0).send(numbered(c, 0, 10));
            c.await(() -> c.deliveries(1).size() == 1, Duration.ofSeconds(61), () -> "the flow's first message");
            for (long seq = 12; seq <= 15; seq++) {
                c.socket(0).send(numbered(c, 0, seq));
            }
            c.advance(Duration.ofMillis(100));
            assertEquals(1, c.deliveries(1).size(), "four wait behind 11 (anchor + 4 = 5 held); " + c.describe());
            c.socket(0).send(numbered(c, 0, 16));
            c.await(() -> c.deliveries(1).size() == 6, Duration.ofMillis(100), () -> "the overflow flush");
            assertEquals(List.of(10L, 12L, 13L, 14L, 15L, 16L), ids(c.deliveries(1)), c.describe());
        }
    }

    // ------------------------------------------------------------------ harness

    private record Result(SimCluster c, List<Integer> sources, long[] base, int perSource) {
        List<Long> delivered(int node, int src) {
            List<Long> out = new ArrayList<>();
            LogicalAddress a = c.address(src);
            for (SimCluster.Delivery d : c.deliveries(node)) {
                if (d.source().equals(a)) {
                    out.add(d.messageId());
                }
            }
            return out;
        }

        /** Data messages that reached some store after a higher MessageIdentifier of the same source. */
        long reorderedArrivals() {
            long n = 0;
            for (int node = 0; node < c.size(); node++) {
                java.util.Map<LogicalAddress, Long> high = new java.util.HashMap<>();
                for (SimCluster.Traced t : c.trace(node)) {
                    if (t.direction() == SimCluster.Direction.IN && t.messageType() == FsmExtension.PAYLOAD_TYPE) {
                        Long h = high.get(t.source());
                        if (h != null && t.messageId() < h) {
                            n++;
                        } else {
                            high.put(t.source(), t.messageId());
                        }
                    }
                }
            }
            return n;
        }
    }

    private static Result multicast(FaultConfig faults) throws Exception {
        long seed = SimCluster.seedFromProperty();
        int n = SOAK ? 30 : 8;
        int perSource = SOAK ? 1000 : 100;
        SimCluster c = SimCluster.dt(n).seed(seed).service("best-effort-ordering").build();
        try {
            Random r = new Random(seed);
            Set<Integer> src = new LinkedHashSet<>();
            while (src.size() < 3) {
                src.add(r.nextInt(n));
            }
            List<Integer> sources = List.copyOf(src);
            long[] base = new long[n];
            for (int s : sources) {
                base[s] = (r.nextLong() >>> 1) - perSource; // large, 19-digit identifiers, no overflow
            }
            c.faultsEverywhere(faults);
            for (int k = 0; k < perSource; k++) {
                for (int s : sources) {
                    c.socket(s).send(numbered(c, s, base[s] + k));
                }
                c.advance(Duration.ofMillis(2));
            }
            // the default Wait is 3 s: after twice that every hole has been waited for
            c.advance(Duration.ofSeconds(7));
            return new Result(c, sources, base, perSource);
        } catch (RuntimeException | Error e) {
            c.close();
            throw e;
        }
    }

    static OverlayMessage numbered(SimCluster c, int src, long seq) {
        LogicalAddress a = c.address(src);
        return new OverlayMessage(DeliveryMode.MULTICAST, c.socket(src).config().forwarding().hopLimit(), a, null, a,
                null, List.of(new FsmExtension(SERVICE, FsmExtension.PAYLOAD_TYPE, seq),
                        new PayloadExtension(("seq " + seq).getBytes(UTF_8))));
    }

    private static List<Long> ids(List<SimCluster.Delivery> ds) {
        List<Long> out = new ArrayList<>();
        for (SimCluster.Delivery d : ds) {
            out.add(d.messageId());
        }
        return out;
    }

    private static void assertStrictlyIncreasing(List<Long> ids, String where) {
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i - 1) < ids.get(i), "position " + i + ": " + ids.get(i - 1) + " then " + ids.get(i)
                    + "; " + where);
        }
    }
}
