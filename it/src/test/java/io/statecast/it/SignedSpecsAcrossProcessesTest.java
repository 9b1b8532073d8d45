package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.messagestore.deploy.SigningKey;
import io.statecast.messagestore.deploy.SpecSignatures;
import io.statecast.messagestore.deploy.TlsTrust;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.overlay.testkit.Await;
import io.statecast.specserver.MessageStoreSpecCheck;
import io.statecast.specserver.SpecServer;
import io.statecast.specserver.SpecServerClient;
import io.statecast.specserver.SpecServerConfig;
import io.statecast.specserver.SpecServerLimits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signed specs over HTTPS between real processes: a spec server (embedded here) serving HTTPS with a
 * certificate made by keytool at test time, node A that loads two services from local files and
 * multicasts with each, and node B that knows neither and trusts one publisher key and the
 * server's certificate ({@code trustedKeys}, {@code specServer.caFile}). The server holds one spec
 * signed by the publisher and one unsigned: B installs the signed one (its application receives
 * every message) and refuses the unsigned one (counted; its messages never reach the application).
 */
class SignedSpecsAcrossProcessesTest {

    static final int K = 10;
    static final int SIZE = 200;
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DELIVER = Duration.ofSeconds(45);
    static final Duration REPLY = Duration.ofSeconds(20);
    static final String TOKEN = "it-signed-token-0123456789abcdef";

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

    /** keytool makes an EC key and a self-signed certificate for 127.0.0.1; written as PEM. */
    private SpecServerConfig.Tls certificate() throws Exception {
        Path ks = dir.resolve("server.p12");
        String pass = "test-only-pass";
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=statecast-it", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-keystore", ks.toString(), "-storetype", "PKCS12", "-storepass", pass, "-keypass", pass)
                .redirectErrorStream(true).redirectOutput(dir.resolve("keytool.log").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, () -> read(dir.resolve("keytool.log")));
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(ks)) {
            store.load(in, pass.toCharArray());
        }
        Path cert = Files.writeString(dir.resolve("server.crt"), pem("CERTIFICATE",
                store.getCertificate("server").getEncoded()));
        Path key = Files.writeString(dir.resolve("server.key"), pem("PRIVATE KEY",
                store.getKey("server", pass.toCharArray()).getEncoded()));
        return new SpecServerConfig.Tls(cert, key);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private NodeProcess start(String name, NodeConfig node, String messageStore) {
        Path file = cluster.write(name + ".yaml", node.yaml() + "  messageStore:\n" + messageStore.indent(4));
        return cluster.startRaw(name, List.of("node", "--config", file.toString(), "--control", "stdin"));
    }

    private static JsonNode deployment(NodeProcess p) throws IOException {
        String line = p.request("stats", "STATS", REPLY);
        return new ObjectMapper().readTree(line.substring("STATS ".length())).path("messageStore").path("deployment");
    }

    private static List<String> recv(NodeProcess p, String source) {
        return p.matching(l -> l.startsWith("RECV " + source + " "));
    }

    @Test
    void aNodeInstallsTheSignedSpecOverHttpsAndRefusesTheUnsignedOne() throws Exception {
        Random random = new Random(SEED);
        int signedId = 1_000_000 + random.nextInt(1_000_000_000);
        int unsignedId = signedId + 1;
        String context = "ServiceIDs " + signedId + " (signed), " + unsignedId + " (unsigned), seed " + SEED;

        SigningKey publisher = SigningKey.generate();
        publisher.write(dir.resolve("publisher"));
        SpecServerConfig.Tls tls = certificate();
        check = new MessageStoreSpecCheck(SpecServerLimits.DEFAULTS.maxSpecBytes());
        server = SpecServer.start(SpecServerConfig.secured(Files.createDirectories(dir.resolve("specs")), TOKEN).withTls(tls),
                check);
        byte[] signed = SpecSignatures.sign("it", SpecDeploymentAcrossProcessesTest.spec(signedId)
                .getBytes(StandardCharsets.UTF_8), publisher, SpecLimits.DEFAULTS);
        String unsigned = SpecDeploymentAcrossProcessesTest.spec(unsignedId);
        SpecServerClient client = new SpecServerClient(server.baseUri(), Optional.of(TOKEN),
                SpecServerClient.Options.DEFAULTS, Optional.of(TlsTrust.trusting(tls.certificateChain())));
        client.put(signedId, signed, Optional.empty());
        client.put(unsignedId, unsigned.getBytes(StandardCharsets.UTF_8), Optional.empty());

        cluster = new NodeCluster(dir);
        Path signedFile = Files.write(dir.resolve("signed.scxml"), signed);
        Path unsignedFile = cluster.write("unsigned.scxml", unsigned);
        List<String> addresses = OverlayAddresses.distinct("TREE", 2, random);
        NodeProcess a = start("a", NodeConfig.of("it-signed", "TREE", "udp", addresses.get(0)),
                "services: [ '" + signedFile.toUri() + "', '" + unsignedFile.toUri() + "' ]\n");
        String buddy = a.awaitReady(START).substrate("udp");
        NodeProcess b = start("b", NodeConfig.of("it-signed", "TREE", "udp", addresses.get(1)).withBuddies(List.of(buddy)),
                "unknownService: { holdMs: 20000 }\n"
                        + "trustedKeys: [ '" + dir.resolve("publisher.pub") + "' ]\n"
                        + "specServer: { uri: '" + server.baseUri() + "', caFile: '" + tls.certificateChain() + "' }\n");
        a.awaitPrefix(0, "JOINED", START);
        b.awaitPrefix(0, "JOINED", START);
        cluster.awaitOverlay(List.of(a, b), FORM, () -> context);

        int mark = a.lineCount();
        a.send("send-all " + K + " " + SIZE + " " + unsignedId);
        a.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), REPLY, "SENT");
        Await.until(() -> {
            try {
                return deployment(b).path("downloadsUntrusted").asLong() >= 1;
            } catch (IOException e) {
                return false;
            }
        }, DELIVER, () -> context + ": B did not refuse the unsigned spec\n" + cluster.describe());

        mark = a.lineCount();
        a.send("send-all " + K + " " + SIZE + " " + signedId);
        a.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), REPLY, "SENT");
        Await.until(() -> recv(b, a.address()).size() >= K, DELIVER,
                () -> context + ": B did not receive the signed service's messages\n" + cluster.describe());
        b.request("ping done", "PONG", REPLY);
        List<String> expected = LongStream.range(K, 2 * K)
                .mapToObj(seq -> "RECV " + a.address() + " MULTICAST " + SIZE + " " + seq + " ok").sorted().toList();
        assertEquals(expected, recv(b, a.address()).stream().sorted().toList(),
                () -> context + ": only the signed service's messages reach B's application\n" + b.describe());
        JsonNode d = deployment(b);
        assertEquals(1, d.path("downloadsInstalled").asLong(), () -> context + ": " + d);
        assertEquals(1, d.path("downloadsUntrusted").asLong(), () -> context + ": " + d);
        assertEquals(0, d.path("downloadsFailed").asLong(), () -> context + ": " + d);
    }
}
