package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 3, "real sockets": eight node processes on loopback form one overlay, then every node
 * multicasts K checked payloads and every other node receives exactly K from each source, intact
 * and once each.
 */
class MulticastAcrossProcessesTest {

    /** Node types under test; DT joins the list when its node is registered. */
    static final List<String> NODE_TYPES = List.of("TREE");
    static final int NODES = 8;
    static final int K = 25;
    static final int SIZE = 200;
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DELIVER = Duration.ofSeconds(30);
    static final Duration REPLY = Duration.ofSeconds(20);

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    @TempDir
    Path dir;

    private NodeCluster cluster;

    static Stream<Arguments> overlays() {
        return NODE_TYPES.stream().flatMap(t -> Stream.of(Arguments.of(t, "udp"), Arguments.of(t, "tcp")));
    }

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("overlays")
    void shouldDeliverEveryMulticastExactlyOnceToEveryOtherProcess(String nodeType, String scheme) throws Exception {
        cluster = new NodeCluster(dir);
        String context = nodeType + " over " + scheme + ", seed " + SEED;
        List<String> addresses = OverlayAddresses.distinct(nodeType, NODES, new Random(SEED));

        NodeProcess founder = cluster.start("n0", NodeConfig.of("it-multicast", nodeType, scheme, addresses.get(0)));
        String buddy = founder.awaitReady(START).substrate(scheme);
        List<NodeProcess> nodes = new ArrayList<>(List.of(founder));
        for (int i = 1; i < NODES; i++) {
            nodes.add(cluster.start("n" + i, NodeConfig.of("it-multicast", nodeType, scheme, addresses.get(i))
                    .withBuddies(List.of(buddy))));
        }
        for (NodeProcess p : nodes) {
            p.awaitPrefix(0, "JOINED", START);
        }
        cluster.awaitOverlay(nodes, FORM, () -> context);

        Map<NodeProcess, Integer> marks = new HashMap<>();
        nodes.forEach(p -> {
            marks.put(p, p.lineCount());
            p.send("send-all " + K + " " + SIZE);
        });
        for (NodeProcess p : nodes) {
            String sent = p.awaitLine(marks.get(p), l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"),
                    REPLY, "SENT");
            assertTrue(sent.startsWith("SENT MULTICAST " + K + " 0 " + (K - 1) + " "), () -> context + ": " + sent);
        }

        int expected = (NODES - 1) * K;
        NodeCluster.await(() -> nodes.stream().allMatch(p -> p.matching(l -> l.startsWith("RECV ")).size() >= expected),
                DELIVER, () -> context + ": not every node received " + expected + " messages\n" + cluster.describe());
        // a barrier: every node answers a ping after every RECV line it printed before it
        for (NodeProcess p : nodes) {
            p.request("ping late", "PONG", REPLY);
        }

        Set<String> all = new TreeSet<>();
        nodes.forEach(p -> all.add(p.address()));
        ObjectMapper json = new ObjectMapper();
        for (NodeProcess p : nodes) {
            List<String> recv = p.matching(l -> l.startsWith("RECV "));
            assertEquals(expected, recv.size(), () -> context + ": " + p.name() + " received other than " + expected + "\n" + p.describe());
            Map<String, TreeSet<Long>> bySource = new HashMap<>();
            for (String line : recv) {
                String[] t = line.split(" ");
                assertEquals("MULTICAST", t[2], () -> context + ": " + line);
                assertEquals(Integer.toString(SIZE), t[3], () -> context + ": " + line);
                assertEquals("ok", t[5], () -> context + ": " + p.name() + " got a corrupt or duplicate payload: " + line);
                bySource.computeIfAbsent(t[1], k -> new TreeSet<>()).add(Long.parseLong(t[4]));
            }
            Set<String> others = new TreeSet<>(all);
            others.remove(p.address());
            assertEquals(others, bySource.keySet(), () -> context + ": " + p.name() + " sources");
            List<Long> seqs = LongStream.range(0, K).boxed().toList();
            bySource.forEach((src, got) -> assertEquals(seqs, List.copyOf(got), () -> context + ": " + p.name() + " from " + src));
            assertTrue(p.matching(l -> l.startsWith("LOST-LINES")).isEmpty(), () -> context + ": " + p.describe());

            JsonNode stats = json.readTree(p.request("stats", "STATS", REPLY).substring("STATS ".length()));
            assertEquals(expected, stats.path("forwarding").path("delivered").asLong(), () -> context + ": " + stats);
            assertEquals(K, stats.path("forwarding").path("originated").asLong(), () -> context + ": " + stats);
            assertEquals(0, stats.path("forwarding").path("drops").path("DUPLICATE").asLong(), () -> context + ": " + stats);
        }
    }
}
