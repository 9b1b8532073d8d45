package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code statecast node} as a process: refuses bad configurations with exit status 2 naming the
 * field, survives any control input, stops gracefully on {@code quit}, end of input and SIGTERM,
 * and a SIGTERM-ed node's neighbours learn of it from its Goodbye, long before the neighbour
 * timeout.
 */
class NodeProcessLifecycleTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration EXIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private NodeCluster cluster;

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private NodeCluster cluster() {
        if (cluster == null) {
            cluster = new NodeCluster(dir);
        }
        return cluster;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "overlay.heartbeat.timeoutMs    | bad.yaml | overlay: {id: x, node: TREE, heartbeat: {fastMs: 100, slowMs: 250, timeoutMs: 300}}",
        "overlay.heartbeat.fastMss      | bad.yaml | overlay: {id: x, node: TREE, heartbeat: {fastMss: 100}}",
        "overlay.buffers.maxMessageBytes| bad.yml  | overlay: {id: x, node: TREE, buffers: {maxMessageBytes: 'big'}}",
        "overlay.buddies[1]             | bad.json | {\"overlay\": {\"id\": \"x\", \"node\": \"TREE\", \"buddies\": [\"udp://127.0.0.1:1\", \"smtp://127.0.0.1:2\"]}}",
        "overlay.id                     | bad.yaml | overlay: {node: TREE}",
    })
    void shouldExitWithStatusTwoNamingTheFieldOfABadConfiguration(String field, String file, String text) {
        Path config = cluster().write(file, text);
        NodeProcess p = cluster().startRaw("bad", List.of("node", "--config", config.toString()));

        assertEquals(2, p.awaitExit(EXIT), p::describe);
        assertTrue(p.stderr().contains(field), () -> "stderr should name " + field + "\n" + p.describe());
        assertTrue(p.lines().isEmpty(), () -> "nothing on stdout before the configuration is valid\n" + p.describe());
    }

    @Test
    void shouldExitWithStatusTwoWhenTheConfigurationFileIsMissing() {
        NodeProcess p = cluster().startRaw("missing", List.of("node", "--config", dir.resolve("absent.yaml").toString()));

        assertEquals(2, p.awaitExit(EXIT), p::describe);
        assertTrue(p.stderr().contains("absent.yaml: cannot read"), p::describe);
    }

    /** The launcher script itself, laid out with the classes under test. */
    @Test
    void launcherScriptShouldExitWithStatusTwoNamingTheField() throws Exception {
        Path launcher = LauncherLayout.create(dir.resolve("launcher"));
        Path config = cluster().write("bad.yaml", "overlay: {id: x, node: TREE, heartbeat: {timeoutMs: 100}}\n");
        Path output = dir.resolve("launcher.out");
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "node", "--config", config.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().put("STATECAST_JAVA_OPTS", String.join(" ", NodeCluster.CHILD_JVM_OPTIONS));
        Process p = pb.start();
        try {
            boolean exited = p.waitFor(EXIT.toSeconds(), TimeUnit.SECONDS);
            String out = Files.readString(output, StandardCharsets.UTF_8);
            assertTrue(exited, () -> "the launcher did not exit: " + out);
            assertEquals(2, p.exitValue(), out);
            assertTrue(out.contains("statecast node: overlay.heartbeat.timeoutMs=100"), out);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void shouldAnswerEveryControlLineAndQuitGracefully() throws Exception {
        Path statusFile = dir.resolve("status.json");
        Path config = cluster().write("alone.yaml", NodeConfig.of("it-control", "TREE", "udp", "42").yaml());
        NodeProcess p = cluster().startRaw("alone", List.of("node", "--config", config.toString(), "--control", "stdin",
                "--status-file", statusFile.toString()));
        assertEquals("42", p.awaitReady(START).address());
        p.awaitPrefix(0, "JOINED", START);

        assertErr(p, "bogus", "unknown command 'bogus'");
        assertErr(p, "x".repeat(5000), "line longer than 1024 bytes");
        assertErr(p, "send-all x 100", "N='x' is not an integer");
        assertErr(p, "send-all 1 8", "SIZE=8 must be within 16..");
        assertErr(p, "send-all 1", "usage: send-all N SIZE");
        assertErr(p, "send-all 1 1000000", "maxMessageBytes=65536");
        assertErr(p, "send-to not-an-id 1 100", "send-to");
        assertErr(p, "ping <script>", "ping token");
        assertErr(p, "stats now", "usage: stats");
        assertEquals("PONG alive", p.request("ping alive", "PONG", REPLY));

        assertEquals("SENT MULTICAST 3 0 2 0", p.request("send-all 3 100", "SENT", REPLY), "a lone node transmits nothing");
        assertEquals("SENT FLOOD 2 3 4 0", p.request("flood 2 16", "SENT", REPLY));
        assertEquals("NEIGHBOURS 0", p.request("neighbours", "NEIGHBOURS", REPLY));
        assertTrue(p.request("help", "HELP", REPLY).contains("send-all N SIZE"));
        JsonNode stats = new ObjectMapper().readTree(p.request("stats", "STATS", REPLY).substring("STATS ".length()));
        assertEquals("42", stats.path("address").asText());
        assertEquals("STABLE", stats.path("state").asText());
        assertEquals(5, stats.path("sent").asLong());
        assertEquals(5, stats.path("forwarding").path("originated").asLong());
        Await.until(() -> readStatus(statusFile).path("sent").asLong() == 5, REPLY,
                () -> "status file " + statusFile + " never showed the sends\n" + p.describe());

        assertEquals("LEFT", p.request("leave", "LEFT", REPLY));
        assertErr(p, "send-all 1 100", "not in an overlay");
        p.send("quit");

        assertEquals(0, p.awaitExit(EXIT), p::describe);
        assertEquals("BYE quit", p.last("BYE").orElseThrow());
        JsonNode last = readStatus(statusFile);
        assertTrue(last.path("stopped").asBoolean(), last::toString);
        assertEquals("STOPPED", last.path("state").asText(), last::toString);
        assertTrue(p.matching(l -> l.startsWith("LOST-LINES")).isEmpty(), p::describe);
    }

    @Test
    void shouldKeepServingWhenNobodyReadsItsOutput() throws Exception {
        Path statusFile = dir.resolve("unread.json");
        Path config = cluster().write("unread.yaml", NodeConfig.of("it-unread", "TREE", "udp", "5").yaml());
        NodeProcess p = cluster().startRaw("unread", List.of("node", "--config", config.toString(), "--control", "stdin",
                "--status-file", statusFile.toString()), true);
        Await.until(() -> readStatus(statusFile).path("joined").asBoolean(), START,
                () -> "never joined\n" + p.describe());

        // far more PONG lines than the pipe and the output queue hold, then a send
        p.send("ping\n".repeat(150_000) + "send-all 5 16");

        Await.until(() -> readStatus(statusFile).path("sent").asLong() == 5, START,
                () -> "the node stalled behind its unread output: " + readStatus(statusFile) + "\n" + p.describe());
        assertTrue(readStatus(statusFile).path("outputLinesDropped").asLong() > 0, () -> readStatus(statusFile).toString());
        p.startReading();
        // the queue is still full as reading starts: a request now could lose its own reply, so
        // wait until every earlier reply has arrived or is counted as lost
        Await.until(() -> p.matching(l -> l.equals("PONG") || l.startsWith("SENT ")).size()
                + readStatus(statusFile).path("outputLinesDropped").asLong() == 150_001, START,
                () -> "the output never drained: " + readStatus(statusFile) + "\n" + p.describe());
        JsonNode stats = new ObjectMapper().readTree(p.request("stats", "STATS", REPLY).substring("STATS ".length()));
        long dropped = stats.path("outputLinesDropped").asLong();
        assertEquals("LOST-LINES " + dropped, p.last("LOST-LINES").orElse(null), "the reader learns exactly how many lines it lost");
        int replies = p.matching(l -> l.equals("PONG") || l.startsWith("SENT ")).size();
        assertEquals(150_001 - dropped, replies, "every reply to the 150,001 commands arrived or was counted as lost");
    }

    private static JsonNode readStatus(Path file) {
        try {
            return Files.exists(file) ? new ObjectMapper().readTree(file.toFile()) : new ObjectMapper().createObjectNode();
        } catch (IOException e) {
            throw new AssertionError("status file " + file + " is not one complete JSON document", e);
        }
    }

    private static void assertErr(NodeProcess p, String command, String expected) {
        int mark = p.lineCount();
        p.send(command);
        String reply = p.awaitLine(mark, l -> !l.startsWith("STATE") && !l.startsWith("NEIGHBOURS"), REPLY,
                "the reply to '" + command + "'");
        assertTrue(reply.startsWith("ERR ") && reply.contains(expected),
                () -> "'" + command + "' should be refused with '" + expected + "', got: " + reply + "\n" + p.describe());
    }

    @Test
    void shouldLeaveAndExitWhenItsControlInputEnds() {
        NodeProcess p = cluster().start("eof", NodeConfig.of("it-eof", "TREE", "tcp", "7"));
        p.awaitPrefix(0, "JOINED", START);

        p.closeInput();

        assertEquals(0, p.awaitExit(EXIT), p::describe);
        assertEquals("BYE eof", p.last("BYE").orElseThrow(), p::describe);
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("io.statecast.it.MulticastAcrossProcessesTest#overlays")
    void neighboursShouldDropASigtermedNodeLongBeforeTheNeighbourTimeout(String nodeType, String scheme) {
        int timeoutMs = 30_000;
        Duration noticeWithin = Duration.ofMillis(timeoutMs / 3);
        List<String> addresses = OverlayAddresses.distinct(nodeType, 3, new Random(SEED));
        String context = nodeType + " over " + scheme + ", seed " + SEED;
        NodeProcess founder = cluster().start("n0", NodeConfig.of("it-sigterm", nodeType, scheme, addresses.get(0)).withTimeoutMs(timeoutMs));
        String buddy = founder.awaitReady(START).substrate(scheme);
        List<NodeProcess> nodes = new ArrayList<>(List.of(founder));
        for (int i = 1; i < 3; i++) {
            nodes.add(cluster().start("n" + i, NodeConfig.of("it-sigterm", nodeType, scheme, addresses.get(i))
                    .withBuddies(List.of(buddy)).withTimeoutMs(timeoutMs)));
        }
        nodes.forEach(p -> p.awaitPrefix(0, "JOINED", START));
        cluster().awaitOverlay(nodes, START, () -> context);

        NodeProcess victim = nodes.get(2);
        String gone = victim.address();
        Set<String> itsNeighbours = victim.neighbours();
        assertFalse(itsNeighbours.isEmpty(), victim::describe);
        List<NodeProcess> affected = nodes.stream().filter(p -> itsNeighbours.contains(p.address())).toList();
        Map<NodeProcess, Integer> marks = new HashMap<>();
        affected.forEach(p -> marks.put(p, p.lineCount()));
        long t0 = System.nanoTime();

        victim.terminate();

        assertEquals(0, victim.awaitExit(EXIT), victim::describe);
        assertEquals("BYE signal", victim.last("BYE").orElse(null), victim::describe);
        for (NodeProcess p : affected) {
            String line = p.awaitLine(marks.get(p), l -> NodeProcess.hasPrefix(l, "NEIGHBOURS") && !List.of(l.split(" ")).contains(gone),
                    noticeWithin, "a neighbour set without " + gone + " (Goodbye), within " + noticeWithin + " of SIGTERM; " + context);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < timeoutMs, () -> p.name() + " noticed after " + ms + " ms: " + line);
        }
        List<NodeProcess> rest = nodes.subList(0, 2);
        cluster().awaitOverlay(rest, START, () -> context + ", after " + victim.name() + " left");
    }
}
