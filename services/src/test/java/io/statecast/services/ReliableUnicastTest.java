package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.services.testing.SimCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reliable-unicast service ({@code services/reliable-unicast.scxml}) on whole nodes
 * ({@link SimCluster}): a five-hop chain whose relays only forward, datagram loss (and duplication
 * and reordering) on every link; the destination's application gets every message exactly once
 * and in the order sent, and the connection closes when the traffic stops.
 *
 * <p>1,000 messages per run; {@code -Psoak} ({@code statecast.soak}) sends 10,000.
 */
class ReliableUnicastTest {

    static final int SERVICE = 10;
    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");
    private static final int MESSAGES = SOAK ? 10_000 : 1_000;
    /** Virtual time between two sends: 200 messages a second. */
    private static final Duration GAP = Duration.ofMillis(5);
    /**
     * The sender's history holds its queue (three entries per message waiting, two per message in
     * flight): room for the messages the application sends during a run of back-offs.
     */
    private static final int HISTORY = 4_096;
    /**
     * The application keeps at most this many messages unacknowledged end to end (it waits for
     * deliveries before sending more): the socket's send window, which holds a real application
     * back at SendBuffer messages, does not wait on a virtual clock, and the queue lives in the
     * history (three entries per waiting message), so the simulated application paces itself.
     */
    private static final int BACKLOG = 500;

    @Test
    void shouldDeliverEveryMessageOnceAndInOrderWithoutLoss() throws Exception {
        run(2, FaultConfig.NONE, "lossless");
    }

    @Test
    void shouldDeliverEveryMessageOnceAndInOrderAt5PercentLoss() throws Exception {
        run(2, FaultConfig.loss(0.05), "5% loss");
    }

    @Test
    void shouldDeliverEveryMessageOnceAndInOrderAt20PercentLoss() throws Exception {
        run(2, FaultConfig.loss(0.20), "20% loss");
    }

    @Test
    void shouldDeliverEveryMessageOnceAndInOrderWithLossDuplicationAndReordering() throws Exception {
        run(2, FaultConfig.loss(0.05).withDuplication(0.05).withReordering(0.05, Duration.ofMillis(30)),
                "5% loss, 5% duplication, 5% reordering by 30 ms");
    }

    @Test
    void shouldDeliverEveryMessageOnceAndInOrderAcrossRelaysAt5PercentLoss() throws Exception {
        // three hops: each message and each ACK crosses three lossy links (14% end to end)
        run(4, FaultConfig.loss(0.05), "5% loss on each of 3 hops");
    }

    /**
     * The sender's {@code <InFlightCount>}: the socket's send window counts each message the sender
     * holds (queued behind the SYN, then unacknowledged) until its ACK; when the peer turns
     * unreachable the messages go back to the application as type 6 and the count drops to 0, so
     * later sends do not wait for them. Two back-offs (MaxBackoffs 2) keep the give-up short.
     */
    @Test
    void shouldCountHeldMessagesUntilAcknowledgedOrGivenBack() throws Exception {
        try (SimCluster c = SimCluster.chain(2).service("reliable-unicast", Map.of("MaxBackoffs", "2")).build()) {
            assertTrue(c.store(0).sendWindow().counts(SERVICE), "reliable-unicast declares an in-flight count");
            c.blackhole(1);
            List<Long> first = sendAtOnce(c, 3);
            c.advance(Duration.ZERO);
            assertEquals(3, c.store(0).sendWindow().inFlight(SERVICE), () -> "three queued, the SYN lost; " + c.describe());
            c.lift(1);
            // the SYN again after the InitialRTO (1 s), then the three
            c.await(() -> c.deliveries(1).size() >= 3 && c.store(0).sendWindow().inFlight(SERVICE) == 0,
                    Duration.ofSeconds(10), () -> "delivered and acknowledged: nothing held; in flight "
                            + c.store(0).sendWindow().inFlight(SERVICE) + "; " + c.describe());
            assertEquals(first, c.deliveries(1).stream().map(SimCluster.Delivery::messageId).toList(), c::describe);

            c.blackhole(1);
            List<Long> lost = sendAtOnce(c, 2);
            c.advance(Duration.ZERO);
            assertEquals(2, c.store(0).sendWindow().inFlight(SERVICE), () -> "two held, unacknowledged; " + c.describe());
            c.await(() -> c.deliveries(0).stream().filter(d -> d.messageType() == 6).count() >= 2, Duration.ofSeconds(30),
                    () -> "peer unreachable: both back to the application; " + c.describe());
            assertEquals(lost, c.deliveries(0).stream().filter(d -> d.messageType() == 6).map(SimCluster.Delivery::messageId).toList(),
                    c::describe);
            assertEquals(0, c.store(0).sendWindow().inFlight(SERVICE), () -> "given back: nothing held; " + c.describe());
        }
    }

    private static List<Long> sendAtOnce(SimCluster c, int n) {
        List<Long> ids = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            OverlayMessage m = c.socket(0).createMessage(DeliveryMode.UNICAST, c.address(1), new byte[16], SERVICE);
            ids.add(m.fsm().messageId());
            c.socket(0).send(m);
        }
        return ids;
    }

    /**
     * Runs {@link #MESSAGES} from node 0 to the far end of a chain of {@code nodes}. The store's
     * primitive budget is raised above its defaults (burst 200, 2,000/s per instance): a sender
     * calls about three primitives per message and up to four per window slot when an ACK opens
     * the window after a stall (docs/services/reliable-unicast.md).
     */
    private static void run(int nodes, FaultConfig faults, String what) throws Exception {
        try (SimCluster c = SimCluster.chain(nodes).service("reliable-unicast")
                .storeConfig(s -> s.withInstances(s.instances().withHistoryEntries(HISTORY).withPrimitiveRate(2_000, 20_000)))
                .build()) {
            c.faultsEverywhere(faults);
            int last = c.size() - 1;
            long t0 = c.clock().nanoTime();
            List<Long> sent = send(c, 0, last, MESSAGES);
            c.await(() -> c.deliveries(last).size() >= MESSAGES, Duration.ofMinutes(SOAK ? 60 : 10),
                    () -> "all " + MESSAGES + " at the far end (" + what + "); source " + c.metrics(0).service(SERVICE).counters()
                            + "; destination " + c.metrics(last).service(SERVICE).counters());
            double seconds = (c.clock().nanoTime() - t0) / 1e9;
            List<Long> got = new ArrayList<>();
            for (SimCluster.Delivery d : c.deliveries(last)) {
                assertEquals(c.address(0), d.source(), () -> "the original source; " + c.describe());
                assertEquals(1024, d.payloadLength(), () -> "a whole payload; " + c.describe());
                got.add(d.messageId());
            }
            assertEquals(sent, got, () -> "every message once, in the order sent (" + what + "); " + c.describe());
            for (int i = 0; i < last; i++) {
                int node = i;
                assertEquals(0, c.deliveries(i).size(), () -> "only the destination delivers: node " + node + "; " + c.describe());
            }
            CountersSnapshot src = c.metrics(0).service(SERVICE).counters();
            CountersSnapshot dst = c.metrics(last).service(SERVICE).counters();
            for (CountersSnapshot s : List.of(src, dst)) {
                assertEquals(0, s.historyEvicted(), () -> "no state lost to the history bound; " + c.describe());
                assertEquals(0, s.engineErrors(), () -> "no engine error; " + c.describe());
                assertEquals(0, s.evaluationFailures(), () -> "no failed XPath; " + c.describe());
                assertEquals(0, s.actions(ActionOutcome.FAILED) + s.drops(DropReason.THROTTLED),
                        () -> "every action ran, no message over the primitive budget; " + s + "; " + c.describe());
            }
            assertEquals(0, src.executed(Primitive.TO_APPLICATION), () -> "no peer-unreachable report; " + c.describe());
            // the last ACKs may still be on their way (or lost and repaired)
            c.await(() -> c.store(0).sendWindow().inFlight(SERVICE) == 0, Duration.ofMinutes(2),
                    () -> "every message acknowledged: nothing held; " + c.describe());
            // idle: the sender closes (FIN after IdleClose), both ends end their instances
            c.await(() -> c.liveInstances(0) == 0 && c.liveInstances(last) == 0, Duration.ofMinutes(2),
                    () -> "the connection closes when the traffic stops");
            long dataSent = src.executed(Primitive.SEND_DATA_MESSAGE);
            System.out.printf("reliable-unicast, %s, seed %d: %d messages in %.1f s virtual, %d data sends (%.3f per message)%n",
                    what, c.seed(), MESSAGES, seconds, dataSent, dataSent / (double) MESSAGES);
            assertTrue(dataSent >= MESSAGES, c.describe());
        }
    }

    /**
     * Sends {@code n} 1 KB unicasts from {@code from} to {@code to}, one every {@link #GAP}, never more
     * than {@link #BACKLOG} ahead of the deliveries; their MessageIDs in order.
     */
    private static List<Long> send(SimCluster c, int from, int to, int n) {
        Random random = new Random(c.seed() ^ 0x5eed);
        List<Long> ids = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            int offered = k;
            c.await(() -> offered - c.deliveries(to).size() < BACKLOG, Duration.ofMinutes(5),
                    () -> "room in the application's backlog of " + BACKLOG);
            byte[] payload = new byte[1024];
            random.nextBytes(payload);
            OverlayMessage m = c.socket(from).createMessage(DeliveryMode.UNICAST, c.address(to), payload, SERVICE);
            FsmExtension f = m.fsm();
            ids.add(f.messageId());
            c.socket(from).send(m);
            c.advance(GAP);
        }
        return ids;
    }

}
