package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reliable-unicast service (ServiceID 10, {@code classpath:services/reliable-unicast.scxml})
 * between two node processes over UDP on loopback, in both directions at once: each application
 * gets the other's messages once each, intact and in the order sent (the RECV lines are printed in
 * delivery order), over real sockets and the wire's fields extension; and, with the store's
 * defaults and datagrams dropped on arrival at the receiver, an unpaced sender held back by the
 * socket's send window. The other loss runs are the simulation's (services' ReliableUnicastTest).
 */
class ReliableUnicastAcrossProcessesTest {

    static final int SERVICE = 10;
    static final int K = 300;
    static final int K_UNPACED = 3000;
    static final int SIZE = 1024;
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DELIVER = Duration.ofSeconds(60);
    static final Duration REPLY = Duration.ofSeconds(20);

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    /**
     * The store: the service, and room for a burst of K messages in the sender's history (three
     * entries each while queued) and for the primitive calls of a window opening at once.
     */
    static final String STORE = """
            instances: { historyEntries: 2048, primitiveBurst: 2000, primitiveRatePerSecond: 100000 }
            services:
              - classpath:services/reliable-unicast.scxml
            """;

    @TempDir
    Path dir;

    private NodeCluster cluster;

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldDeliverEveryMessageOnceAndInOrderBothWays() {
        String context = "seed " + SEED;
        cluster = new NodeCluster(dir);
        List<String> addresses = OverlayAddresses.distinct("TREE", 2, new Random(SEED));
        NodeProcess a = start("a", NodeConfig.of("it-reliable", "TREE", "udp", addresses.get(0)));
        String buddy = a.awaitReady(START).substrate("udp");
        NodeProcess b = start("b", NodeConfig.of("it-reliable", "TREE", "udp", addresses.get(1)).withBuddies(List.of(buddy)));
        a.awaitPrefix(0, "JOINED", START);
        b.awaitPrefix(0, "JOINED", START);
        cluster.awaitOverlay(List.of(a, b), FORM, () -> context);

        int markA = a.lineCount();
        int markB = b.lineCount();
        a.send("send-to " + b.address() + " " + K + " " + SIZE + " " + SERVICE);
        b.send("send-to " + a.address() + " " + K + " " + SIZE + " " + SERVICE);
        for (NodeProcess p : List.of(a, b)) {
            int mark = p == a ? markA : markB;
            String sent = p.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), REPLY, "SENT");
            assertTrue(sent.startsWith("SENT UNICAST " + K + " 0 " + (K - 1)), () -> context + ": " + p.name() + ": " + sent);
        }
        Await.until(() -> recv(a).size() >= K && recv(b).size() >= K, DELIVER,
                () -> context + ": not every message arrived\n" + cluster.describe());
        for (NodeProcess p : List.of(a, b)) {
            NodeProcess from = p == a ? b : a;
            p.request("ping done", "PONG", REPLY);
            List<String> expected = LongStream.range(0, K)
                    .mapToObj(seq -> "RECV " + from.address() + " UNICAST " + SIZE + " " + seq + " ok").toList();
            assertEquals(expected, recv(p), () -> context + ": " + p.name() + " gets each of " + from.name()
                    + "'s messages once, intact, in order\n" + p.describe());
            assertTrue(p.matching(l -> l.startsWith("LOST-LINES")).isEmpty(), () -> context + ": " + p.describe());
        }
    }

    /**
     * The store's defaults (a history of 128 entries, a burst of 200 primitive calls, SendBuffer
     * 30) and 2 % of datagrams dropped on arrival at the receiver: the application sends
     * K_UNPACED at once, far more than the sender's history holds. The sender's
     * {@code <InFlightCount>} holds the sends back while SendBuffer messages are queued or
     * unacknowledged, so none is evicted or refused, and the receiver gets every message once, in
     * order.
     */
    @Test
    void anUnpacedSenderShouldBeHeldBackToWhatItsHistoryHolds() {
        String context = "seed " + SEED;
        cluster = new NodeCluster(dir);
        List<String> addresses = OverlayAddresses.distinct("TREE", 2, new Random(SEED));
        String defaults = "services:\n  - classpath:services/reliable-unicast.scxml\n";
        NodeProcess a = start("a", NodeConfig.of("it-reliable2", "TREE", "udp", addresses.get(0)), defaults, false);
        String buddy = a.awaitReady(START).substrate("udp");
        NodeProcess b = start("b", NodeConfig.of("it-reliable2", "TREE", "udp", addresses.get(1))
                .withBuddies(List.of(buddy)), defaults, true);
        a.awaitPrefix(0, "JOINED", START);
        b.awaitPrefix(0, "JOINED", START);
        cluster.awaitOverlay(List.of(a, b), FORM, () -> context);

        int mark = a.lineCount();
        long t0 = System.nanoTime();
        a.send("send-to " + b.address() + " " + K_UNPACED + " " + SIZE + " " + SERVICE);
        String sent = a.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), DELIVER, "SENT");
        assertTrue(sent.startsWith("SENT UNICAST " + K_UNPACED + " 0 " + (K_UNPACED - 1)), () -> context + ": " + sent);
        Await.until(() -> recv(b).size() >= K_UNPACED, DELIVER,
                () -> context + ": not every message arrived (" + recv(b).size() + " of " + K_UNPACED + ")\n" + cluster.describe());
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("reliable-unicast across processes, store defaults, 2%% input loss, %s: %d messages in %.1f s (%.0f/s)%n",
                context, K_UNPACED, seconds, K_UNPACED / seconds);
        b.request("ping done", "PONG", REPLY);
        List<String> expected = LongStream.range(0, K_UNPACED)
                .mapToObj(seq -> "RECV " + a.address() + " UNICAST " + SIZE + " " + seq + " ok").toList();
        assertEquals(expected, recv(b), () -> context + ": b gets each of a's messages once, intact, in order\n" + b.describe());
        assertTrue(b.matching(l -> l.startsWith("LOST-LINES")).isEmpty(), () -> context + ": " + b.describe());
    }

    private static List<String> recv(NodeProcess p) {
        return p.matching(l -> l.startsWith("RECV "));
    }

    private NodeProcess start(String name, NodeConfig node) {
        return start(name, node, STORE, false);
    }

    private NodeProcess start(String name, NodeConfig node, String store, boolean lossy) {
        return cluster.startWithStore(name, node, store, lossy ? 0.02 : 0, SEED + name.hashCode());
    }
}
