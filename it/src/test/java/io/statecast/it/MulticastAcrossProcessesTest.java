package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayNodeFactories;
import io.statecast.overlay.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToIntFunction;
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
 * and once each; then unicasts around a ring and one flood arrive exactly once too.
 */
class MulticastAcrossProcessesTest {

    /**
     * Node types under test: every one the build registers, so DT joins by itself once its node is
     * in {@link OverlayNodeFactories#builtIn()}.
     */
    static final List<String> NODE_TYPES = OverlayNodeFactories.builtIn().keySet().stream().map(NodeType::name).sorted().toList();
    static final int NODES = 8;
    static final int K = 25;
    static final int U = 5;
    static final int F = 5;
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
    void shouldDeliverMulticastUnicastAndFloodExactlyOnceAcrossProcesses(String nodeType, String scheme) throws Exception {
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

        // every node multicasts K: each receives K from each other node
        sendFromEach(nodes, p -> "send-all " + K + " " + SIZE, "MULTICAST", K, context);
        int expected = (NODES - 1) * K;
        awaitReceived(nodes, "MULTICAST", p -> expected, context);
        Set<String> all = new TreeSet<>();
        nodes.forEach(p -> all.add(p.address()));
        ObjectMapper json = new ObjectMapper();
        for (NodeProcess p : nodes) {
            Map<String, List<Long>> got = received(p, "MULTICAST", context);
            Set<String> others = new TreeSet<>(all);
            others.remove(p.address());
            assertEquals(others, got.keySet(), () -> context + ": " + p.name() + " sources");
            got.forEach((src, seqs) -> assertEquals(range(0, K), seqs, () -> context + ": " + p.name() + " from " + src));
            JsonNode stats = json.readTree(p.request("stats", "STATS", REPLY).substring("STATS ".length()));
            assertEquals(expected, stats.path("forwarding").path("delivered").asLong(), () -> context + ": " + stats);
            assertEquals(K, stats.path("forwarding").path("originated").asLong(), () -> context + ": " + stats);
            assertEquals(0, stats.path("forwarding").path("drops").path("DUPLICATE").asLong(),
                    () -> context + ": a multicast tree delivers no copy twice: " + stats);
        }

        // every node unicasts U to the next one: each receives exactly those U
        sendFromEach(nodes, p -> "send-to " + nodes.get((nodes.indexOf(p) + 1) % NODES).address() + " " + U + " " + SIZE,
                "UNICAST", U, context);
        awaitReceived(nodes, "UNICAST", p -> U, context);
        for (NodeProcess p : nodes) {
            NodeProcess from = nodes.get((nodes.indexOf(p) + NODES - 1) % NODES);
            assertEquals(Map.of(from.address(), range(K, K + U)), received(p, "UNICAST", context), () -> context + ": " + p.name());
        }

        // one node floods F: every other receives exactly those F
        NodeProcess flooder = nodes.get(NODES / 2);
        sendFromEach(List.of(flooder), p -> "flood " + F + " " + SIZE, "FLOOD", F, context);
        awaitReceived(nodes, "FLOOD", p -> p == flooder ? 0 : F, context);
        for (NodeProcess p : nodes) {
            Map<String, List<Long>> expectedFlood = p == flooder ? Map.of() : Map.of(flooder.address(), range(K + U, K + U + F));
            assertEquals(expectedFlood, received(p, "FLOOD", context), () -> context + ": " + p.name());
            assertTrue(p.matching(l -> l.startsWith("LOST-LINES")).isEmpty(), () -> context + ": " + p.describe());
        }
    }

    /** Sends each node its command at once, then checks every SENT reply. */
    private void sendFromEach(List<NodeProcess> senders, Function<NodeProcess, String> command, String mode, int n, String context) {
        Map<NodeProcess, Integer> marks = new HashMap<>();
        senders.forEach(p -> {
            marks.put(p, p.lineCount());
            p.send(command.apply(p));
        });
        for (NodeProcess p : senders) {
            String sent = p.awaitLine(marks.get(p), l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"),
                    REPLY, "SENT");
            assertTrue(sent.startsWith("SENT " + mode + " " + n + " "), () -> context + ": " + p.name() + ": " + sent);
        }
    }

    /**
     * Waits until every node has printed its expected number of RECV lines of {@code mode}, then
     * pings each: its PONG comes after every RECV line it printed before, so a late extra copy
     * would be in the history by then.
     */
    private void awaitReceived(List<NodeProcess> nodes, String mode, ToIntFunction<NodeProcess> expected, String context) {
        Await.until(() -> nodes.stream().allMatch(p -> recv(p, mode).size() >= expected.applyAsInt(p)), DELIVER,
                () -> context + ": not every node received its " + mode + " messages\n" + cluster.describe());
        for (NodeProcess p : nodes) {
            p.request("ping " + mode, "PONG", REPLY);
            assertEquals(expected.applyAsInt(p), recv(p, mode).size(), () -> context + ": " + p.name() + " " + mode + "\n" + p.describe());
        }
    }

    private static List<String> recv(NodeProcess p, String mode) {
        return p.matching(l -> l.startsWith("RECV ") && l.split(" ")[2].equals(mode));
    }

    /** Sequence numbers received per source (sorted), each line checked intact, of the right size, a first copy. */
    private static Map<String, List<Long>> received(NodeProcess p, String mode, String context) {
        Map<String, TreeSet<Long>> bySource = new TreeMap<>();
        for (String line : recv(p, mode)) {
            String[] t = line.split(" ");
            assertEquals(Integer.toString(SIZE), t[3], () -> context + ": " + line);
            assertEquals("ok", t[5], () -> context + ": " + p.name() + " got a corrupt or duplicate payload: " + line);
            assertTrue(bySource.computeIfAbsent(t[1], k -> new TreeSet<>()).add(Long.parseLong(t[4])), line);
        }
        Map<String, List<Long>> out = new TreeMap<>();
        bySource.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return out;
    }

    private static List<Long> range(long from, long to) {
        return LongStream.range(from, to).boxed().toList();
    }
}
