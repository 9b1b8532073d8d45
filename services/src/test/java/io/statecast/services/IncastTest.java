package io.statecast.services;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.services.testing.SimCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * incast: every node but one unicasts a contribution with one MessageIdentifier to that node; the
 * messages merge on their way, so it receives fewer messages than there are sources, and their
 * records are exactly the contributions.
 */
class IncastTest {

    private static final int SERVICE = 6;
    private static final boolean SOAK = Boolean.getBoolean("statecast.soak");

    @Test
    void contributionsToOneDestinationShouldArriveMergedAndComplete() throws Exception {
        long seed = SimCluster.seedFromProperty();
        int n = SOAK ? 40 : 16;
        try (SimCluster c = SimCluster.dt(n).seed(seed).service("incast").keepPayloads(true).build()) {
            Random r = new Random(seed);
            // the destination with the fewest neighbours: most contributions then reach it through
            // relays, and more sources than relays must share one (a hub could receive each directly)
            int fewest = 0;
            for (int i = 1; i < n; i++) {
                if (c.socket(i).neighbours().size() < c.socket(fewest).neighbours().size()) {
                    fewest = i;
                }
            }
            int dest = fewest;
            long id = r.nextLong();
            TreeSet<String> sent = new TreeSet<>();
            for (int i = 0; i < n; i++) {
                if (i != dest) {
                    String contribution = "node " + i + " says " + r.nextInt(1000);
                    sent.add(contribution);
                    c.socket(i).send(contribution(c, i, dest, id, contribution));
                }
            }
            c.await(() -> records(c, dest).size() >= sent.size(), Duration.ofSeconds(5),
                    () -> "every contribution at the destination");
            c.advance(Duration.ofSeconds(1));
            List<String> got = records(c, dest);
            assertEquals(sent, new TreeSet<>(got), "the records are the contributions; " + c.describe());
            assertEquals(sent.size(), got.size(), "each exactly once; " + c.describe());
            int messages = c.deliveries(dest).size();
            assertTrue(messages < sent.size(), messages + " messages for " + sent.size() + " sources: nothing merged; "
                    + c.describe());
            for (SimCluster.Delivery d : c.deliveries(dest)) {
                assertEquals(id, d.messageId(), "the MessageIdentifier is kept; " + c.describe());
            }
            for (int i = 0; i < n; i++) {
                if (i != dest) {
                    assertEquals(0, c.deliveries(i).size(), "node " + i + " only relays; " + c.describe());
                }
            }
            c.await(() -> c.liveInstances() == 0, Duration.ofSeconds(10), () -> "every instance to end after Linger");
        }
    }

    /** Relays that are not sources themselves merge what reaches them within Hold: a chain's far end. */
    @Test
    void relaysShouldMergeWhatArrivesWithinHold() throws Exception {
        long seed = SimCluster.seedFromProperty();
        try (SimCluster c = SimCluster.chain(4).seed(seed).service("incast", Map.of("Hold", "200"))
                .keepPayloads(true).build()) {
            // nodes 2 and 3 (the far end) contribute; 1 relays; 0 is the destination
            c.socket(3).send(contribution(c, 3, 0, 77, "three"));
            c.advance(Duration.ofMillis(50));
            c.socket(2).send(contribution(c, 2, 0, 77, "two"));
            c.await(() -> records(c, 0).size() == 2, Duration.ofSeconds(2), () -> "both contributions");
            assertEquals(1, c.deliveries(0).size(), "3's message reached 2 while 2 held its own; " + c.describe());
            assertEquals(List.of("two", "three"), records(c, 0), "in the order node 2 received them; " + c.describe());
        }
    }

    static OverlayMessage contribution(SimCluster c, int src, int dest, long id, String text) {
        LogicalAddress a = c.address(src);
        return new OverlayMessage(DeliveryMode.UNICAST, c.socket(src).config().forwarding().hopLimit(), a,
                c.address(dest), a, null, List.of(new FsmExtension(SERVICE, FsmExtension.PAYLOAD_TYPE, id),
                        new PayloadExtension(IncastPayload.record(text.getBytes(UTF_8)))));
    }

    private static List<String> records(SimCluster c, int node) {
        List<String> out = new ArrayList<>();
        for (byte[] p : c.payloads(node)) {
            try {
                for (byte[] rec : IncastPayload.records(p, 10_000)) {
                    out.add(new String(rec, UTF_8));
                }
            } catch (IncastPayload.MalformedIncastPayloadException e) {
                throw new AssertionError(e.getMessage() + "; " + c.describe(), e);
            }
        }
        return out;
    }
}
