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
 * delivery order), over real sockets and the wire's fields extension. No loss is injected here:
 * the loss runs are the simulation's (services' ReliableUnicastTest); datagram loss between real
 * processes needs the network-namespace testbed.
 */
class ReliableUnicastAcrossProcessesTest {

    static final int SERVICE = 10;
    static final int K = 300;
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

    private static List<String> recv(NodeProcess p) {
        return p.matching(l -> l.startsWith("RECV "));
    }

    private NodeProcess start(String name, NodeConfig node) {
        Path file = cluster.write(name + ".yaml", node.yaml() + "  messageStore:\n" + STORE.indent(4));
        return cluster.startRaw(name, List.of("node", "--config", file.toString(), "--control", "stdin"));
    }
}
