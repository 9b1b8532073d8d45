package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nak-multicast service (ServiceID 11, {@code classpath:services/nak-multicast.scxml}) between
 * four node processes over UDP on loopback: one source multicasts K checked payloads and each of
 * the three receivers' applications gets every one once, intact and in the order sent (the RECV
 * lines are printed in delivery order), over real sockets, the wire's fields extension and the
 * service's started instance. No loss is injected here: the loss runs are the simulation's
 * (services' NakMulticastTest) and the demo's ({@code bin/statecast demo --service nak-multicast}).
 */
class NakMulticastAcrossProcessesTest {

    static final int SERVICE = 11;
    static final int NODES = 4;
    static final int K = 300;
    static final int K_UNPACED = 3000;
    static final int SIZE = 512;
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DELIVER = Duration.ofSeconds(60);
    static final Duration REPLY = Duration.ofSeconds(20);

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    /**
     * The store with the service. The application sends all K at once: the source's instance
     * makes K sends in a burst (the default burst, 200 primitive calls, would throttle them), and
     * a datagram the burst loses is asked for only after the whole burst went out, so the source
     * keeps all K (Buffer 512, in a history of 1,024 entries; the default 64 covers a steady
     * stream, not a burst).
     */
    static final String STORE = """
            instances: { historyEntries: 1024, primitiveBurst: 2000, primitiveRatePerSecond: 100000 }
            services:
              - { uri: "classpath:services/nak-multicast.scxml", parameters: { Buffer: 512, RecvWindow: 512 } }
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
    void everyReceiverShouldGetEveryMessageOnceAndInOrder() {
        String context = "seed " + SEED;
        cluster = new NodeCluster(dir);
        List<String> addresses = OverlayAddresses.distinct("TREE", NODES, new Random(SEED));
        List<NodeProcess> nodes = new ArrayList<>();
        NodeProcess source = start("n0", NodeConfig.of("it-nak", "TREE", "udp", addresses.get(0)));
        nodes.add(source);
        String buddy = source.awaitReady(START).substrate("udp");
        for (int i = 1; i < NODES; i++) {
            nodes.add(start("n" + i, NodeConfig.of("it-nak", "TREE", "udp", addresses.get(i)).withBuddies(List.of(buddy))));
        }
        for (NodeProcess p : nodes) {
            p.awaitPrefix(0, "JOINED", START);
        }
        cluster.awaitOverlay(nodes, FORM, () -> context);

        int mark = source.lineCount();
        source.send("send-all " + K + " " + SIZE + " " + SERVICE);
        String sent = source.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), REPLY, "SENT");
        assertTrue(sent.startsWith("SENT MULTICAST " + K + " 0 " + (K - 1)), () -> context + ": " + sent);
        List<NodeProcess> receivers = nodes.subList(1, NODES);
        Await.until(() -> receivers.stream().allMatch(p -> recv(p).size() >= K), DELIVER,
                () -> context + ": not every message arrived\n" + cluster.describe());
        List<String> expected = LongStream.range(0, K)
                .mapToObj(seq -> "RECV " + source.address() + " MULTICAST " + SIZE + " " + seq + " ok").toList();
        for (NodeProcess p : receivers) {
            p.request("ping done", "PONG", REPLY);
            assertEquals(expected, recv(p), () -> context + ": " + p.name() + " gets each of the source's messages once, "
                    + "intact, in order\n" + p.describe());
            assertTrue(p.matching(l -> l.startsWith("LOST-LINES")).isEmpty(), () -> context + ": " + p.describe());
        }
    }

    /**
     * The store's defaults (Buffer 64, a history of 128 entries, a burst of 200 primitive calls)
     * and 2 % of datagrams dropped on arrival at each receiver: the application sends K_UNPACED
     * at once, far more than the source keeps. The source's {@code <InFlightCount>} holds the
     * sends back while Buffer messages are unreported, so it never lets go of a message a
     * receiver still lacks, and every receiver gets every message once, in order.
     */
    @Test
    void anUnpacedSourceShouldBeHeldBackUntilItsReceiversHaveItsMessages() {
        String context = "seed " + SEED;
        cluster = new NodeCluster(dir);
        List<String> addresses = OverlayAddresses.distinct("TREE", NODES, new Random(SEED));
        List<NodeProcess> nodes = new ArrayList<>();
        String defaults = "services:\n  - { uri: \"classpath:services/nak-multicast.scxml\" }\n";
        NodeProcess source = start("n0", NodeConfig.of("it-nak2", "TREE", "udp", addresses.get(0)), defaults, false);
        nodes.add(source);
        String buddy = source.awaitReady(START).substrate("udp");
        for (int i = 1; i < NODES; i++) {
            nodes.add(start("n" + i, NodeConfig.of("it-nak2", "TREE", "udp", addresses.get(i))
                    .withBuddies(List.of(buddy)), defaults, true));
        }
        for (NodeProcess p : nodes) {
            p.awaitPrefix(0, "JOINED", START);
        }
        cluster.awaitOverlay(nodes, FORM, () -> context);

        // one message first, so that every receiver has reported to the source before the burst: a
        // receiver the source has not heard from yet is a late joiner, which starts where the
        // source's kept messages start (the page's "Flow control")
        List<NodeProcess> receivers = nodes.subList(1, NODES);
        int mark = source.lineCount();
        source.send("send-all 1 " + SIZE + " " + SERVICE);
        source.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT"), REPLY, "SENT");
        Await.until(() -> receivers.stream().allMatch(p -> recv(p).size() >= 1), DELIVER,
                () -> context + ": the first message did not arrive\n" + cluster.describe());
        mark = source.lineCount();
        source.send("send-all " + K_UNPACED + " " + SIZE + " " + SERVICE);
        String sent = source.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"),
                DELIVER, "SENT");
        assertTrue(sent.startsWith("SENT MULTICAST " + K_UNPACED + " 1 " + K_UNPACED), () -> context + ": " + sent);
        Await.until(() -> receivers.stream().allMatch(p -> recv(p).size() >= K_UNPACED + 1), DELIVER,
                () -> context + ": not every message arrived\n" + cluster.describe());
        List<String> expected = LongStream.rangeClosed(0, K_UNPACED)
                .mapToObj(seq -> "RECV " + source.address() + " MULTICAST " + SIZE + " " + seq + " ok").toList();
        for (NodeProcess p : receivers) {
            p.request("ping done", "PONG", REPLY);
            assertEquals(expected, recv(p), () -> context + ": " + p.name() + " gets each of the source's messages once, "
                    + "intact, in order\n" + p.describe());
        }
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
