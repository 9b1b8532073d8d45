package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.overlay.testkit.Await;
import io.statecast.specserver.MessageStoreSpecCheck;
import io.statecast.specserver.SpecServer;
import io.statecast.specserver.SpecServerConfig;
import io.statecast.specserver.SpecServerLimits;
import io.statecast.specserver.StoredSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6, end to end with real processes and a real spec server (embedded here, on an ephemeral
 * loopback port): node A loads a spec nobody has seen — written to a file by this test, with a
 * seeded random ServiceID — and multicasts with it; node B has never seen the service.
 *
 * <ol>
 *   <li>A publishes the spec when it loads it ({@code publishOnLoad}); B downloads it from the
 *       server on the first message and its application receives every message, in order.</li>
 *   <li>The server is empty and A does not publish on load: B's download finds nothing (404), B
 *       sends a Service Request message (MessageType -1) to A, A publishes (it is permitted to),
 *       B's next try downloads it, and B's application receives every message.</li>
 * </ol>
 */
class SpecDeploymentAcrossProcessesTest {

    static final int K = 20;
    static final int SIZE = 200;
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DELIVER = Duration.ofSeconds(45);
    static final Duration REPLY = Duration.ofSeconds(20);
    static final String TOKEN = "it-deploy-token-0123456789abcdef";

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    @TempDir
    Path dir;

    private NodeCluster cluster;
    private SpecServer server;
    private MessageStoreSpecCheck check;

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
        if (check != null) {
            check.close();
        }
    }

    /** A multicast service that hands every message it did not send itself to the application. */
    static String spec(int serviceId) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                       xmlns:action="http://my.custom-actions.domain/action" initialstate="idle">
                  <datamodel>
                    <data name="service">
                      <ServiceName>it-deploy</ServiceName>
                      <ServiceID>%d</ServiceID>
                      <DeliveryMode>multicast</DeliveryMode>
                      <Scope>message</Scope>
                    </data>
                    <data name="events">
                      <Basic>
                        <Event name="sent"><Message><MessageType>-128</MessageType><SourceAddress>local</SourceAddress></Message></Event>
                        <Event name="data"><Message><MessageType>-128</MessageType></Message></Event>
                      </Basic>
                    </data>
                  </datamodel>
                  <state id="idle">
                    <transition event="sent" target="end"/>
                    <transition event="data" target="end">
                      <action:create name="toApplication"/>
                      <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='data'][last()]/Message"/>
                      <action:execute name="toApplication"/>
                    </transition>
                  </state>
                  <final id="end"/>
                </scxml>
                """.formatted(serviceId);
    }

    private void startServer() throws Exception {
        check = new MessageStoreSpecCheck(SpecServerLimits.DEFAULTS.maxSpecBytes());
        Path specs = Files.createDirectories(dir.resolve("specs"));
        server = SpecServer.start(SpecServerConfig.secured(specs, TOKEN), check);
    }

    private Path tokenFile() throws IOException {
        Path p = dir.resolve("spec-token");
        Files.writeString(p, TOKEN + "\n", StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        return p;
    }

    /** The node's YAML: the cluster's usual one plus a messageStore section. */
    private static String yaml(NodeConfig node, String messageStore) {
        return node.yaml() + "  messageStore:\n" + messageStore.indent(4);
    }

    private NodeProcess start(String name, NodeConfig node, String messageStore) {
        Path file = cluster.write(name + ".yaml", yaml(node, messageStore));
        return cluster.startRaw(name, List.of("node", "--config", file.toString(), "--control", "stdin"));
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private record Pair(NodeProcess a, NodeProcess b) {
    }

    /** Starts A (founder) and B (buddy A) and waits for their overlay. */
    private Pair overlay(String storeA, String storeB, String context) {
        List<String> addresses = OverlayAddresses.distinct("TREE", 2, new Random(SEED));
        NodeProcess a = start("a", NodeConfig.of("it-deploy", "TREE", "udp", addresses.get(0)), storeA);
        String buddy = a.awaitReady(START).substrate("udp");
        NodeProcess b = start("b", NodeConfig.of("it-deploy", "TREE", "udp", addresses.get(1)).withBuddies(List.of(buddy)),
                storeB);
        a.awaitPrefix(0, "JOINED", START);
        b.awaitPrefix(0, "JOINED", START);
        cluster.awaitOverlay(List.of(a, b), FORM, () -> context);
        return new Pair(a, b);
    }

    /** A multicasts K checked payloads with the service; B's application gets each once, intact. */
    private void sendAndAwaitAll(Pair p, int serviceId, String context) {
        int mark = p.a().lineCount();
        p.a().send("send-all " + K + " " + SIZE + " " + serviceId);
        String sent = p.a().awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"),
                REPLY, "SENT");
        assertTrue(sent.startsWith("SENT MULTICAST " + K + " 0 " + (K - 1)), () -> context + ": " + sent);
        Await.until(() -> recv(p.b()).size() >= K, DELIVER,
                () -> context + ": B did not receive every message\n" + cluster.describe());
        p.b().request("ping done", "PONG", REPLY);
        List<String> lines = recv(p.b());
        List<String> expected = LongStream.range(0, K)
                .mapToObj(seq -> "RECV " + p.a().address() + " MULTICAST " + SIZE + " " + seq + " ok").toList();
        assertEquals(expected.stream().sorted().toList(), lines.stream().sorted().toList(),
                () -> context + ": B's application must get each message once, intact\n" + p.b().describe());
        assertTrue(p.a().matching(l -> l.startsWith("RECV ")).isEmpty(), () -> context + ": A's own messages are not delivered to A");
    }

    private static List<String> recv(NodeProcess p) {
        return p.matching(l -> l.startsWith("RECV "));
    }

    private static JsonNode deployment(NodeProcess p) throws IOException {
        String line = p.request("stats", "STATS", REPLY);
        return new ObjectMapper().readTree(line.substring("STATS ".length())).path("messageStore").path("deployment");
    }

    private static int newServiceId(Random random) {
        return 1_000_000 + random.nextInt(1_000_000_000);
    }

    @Test
    void shouldDownloadTheSpecAPublishedOnLoad() throws Exception {
        Random random = new Random(SEED);
        int id = newServiceId(random);
        String context = "ServiceID " + id + ", seed " + SEED;
        startServer();
        cluster = new NodeCluster(dir);
        String doc = spec(id);
        Path specFile = cluster.write("new-service.scxml", doc);
        String uri = server.baseUri().toString();
        String storeA = "services: [ '" + specFile.toUri() + "' ]\n"
                + "specServer: { uri: '" + uri + "', tokenFile: '" + tokenFile() + "', publishOnLoad: true }\n";
        String storeB = "unknownService: { holdMs: 30000 }\n"
                + "specServer: { uri: '" + uri + "' }\n";
        Pair p = overlay(storeA, storeB, context);
        Await.until(() -> server.services().stream().anyMatch(s -> s.serviceId() == id), REPLY,
                () -> context + ": A did not publish on load\n" + cluster.describe());
        StoredSpec stored = server.services().stream().filter(s -> s.serviceId() == id).findFirst().orElseThrow();
        assertEquals(sha256(doc), stored.sha256(), () -> context + ": the server holds exactly the file A loaded");

        sendAndAwaitAll(p, id, context);
        JsonNode b = deployment(p.b());
        assertEquals(1, b.path("downloadsInstalled").asLong(), () -> context + ": " + b);
        assertEquals(0, b.path("requestsSent").asLong(), () -> context + ": " + b);
        assertEquals(0, b.path("heldDropped").asLong(), () -> context + ": " + b);
        JsonNode a = deployment(p.a());
        assertEquals(1, a.path("publishes").asLong(), () -> context + ": " + a);
    }

    @Test
    void shouldMakeTheSourcePublishWhenTheServerDoesNotHaveTheSpec() throws Exception {
        Random random = new Random(SEED + 1);
        int id = newServiceId(random);
        String context = "ServiceID " + id + ", seed " + SEED;
        startServer();
        cluster = new NodeCluster(dir);
        String doc = spec(id);
        Path specFile = cluster.write("new-service.scxml", doc);
        String uri = server.baseUri().toString();
        String storeA = "services: [ '" + specFile.toUri() + "' ]\n"
                + "specServer: { uri: '" + uri + "', tokenFile: '" + tokenFile() + "', publishOnRequest: true }\n";
        String storeB = "unknownService: { holdMs: 30000 }\n"
                + "specServer: { uri: '" + uri + "', tries: 10, retryIntervalMs: 200, retryMaxIntervalMs: 2000 }\n";
        Pair p = overlay(storeA, storeB, context);
        assertTrue(server.services().isEmpty(), () -> context + ": the server starts empty and A does not publish on load");

        sendAndAwaitAll(p, id, context);
        StoredSpec stored = server.services().stream().filter(s -> s.serviceId() == id).findFirst()
                .orElseThrow(() -> new AssertionError(context + ": A should have published"));
        assertEquals(sha256(doc), stored.sha256(), context);
        JsonNode b = deployment(p.b());
        assertEquals(1, b.path("downloadsInstalled").asLong(), () -> context + ": " + b);
        assertTrue(b.path("downloadsNotFound").asLong() >= 1, () -> context + ": " + b);
        assertEquals(b.path("downloadsNotFound").asLong(), b.path("requestsSent").asLong(),
                () -> context + ": a Service Request after every 404: " + b);
        assertEquals(0, b.path("heldDropped").asLong(), () -> context + ": " + b);
        JsonNode a = deployment(p.a());
        assertEquals(1, a.path("publishes").asLong(), () -> context + ": one publish however many requests: " + a);
        assertEquals(1, a.path("requestsAnswered").asLong(), () -> context + ": " + a);
        long received = a.path("requestsReceived").asLong();
        assertTrue(received >= 1 && received <= b.path("requestsSent").asLong(),
                () -> context + ": A received B's requests, and only those: " + a + " / " + b);
    }
}
