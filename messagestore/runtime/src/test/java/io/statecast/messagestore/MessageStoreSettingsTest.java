package io.statecast.messagestore;

import io.statecast.messagestore.deploy.SpecServerSettings;
import io.statecast.messagestore.deploy.SigningKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.socket.MessageStoreProvider;
import io.statecast.overlay.socket.OverlayConfigException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code overlay.messageStore} section: defaults, every field, and errors that name the field. */
class MessageStoreSettingsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text.replace('\'', '"'));
    }

    private static String error(String section) throws Exception {
        JsonNode n = json(section);
        OverlayConfigException e = assertThrows(OverlayConfigException.class, () -> MessageStoreSettings.parse(n));
        assertTrue(e.getMessage().startsWith(e.field()), e.getMessage());
        return e.field() + " | " + e.getMessage();
    }

    @Test
    void shouldTakeTheDefaultsForAnEmptySection() throws Exception {
        MessageStoreSettings s = MessageStoreSettings.parse(json("{}"));
        assertEquals(MessageStoreConfig.defaults(), s.config());
        assertEquals(0, s.services().size());
    }

    @Test
    void shouldReadEveryField() throws Exception {
        MessageStoreSettings s = MessageStoreSettings.parse(json("""
                {'shards': 3, 'threading': 'clock', 'dataQueueCapacity': 50, 'controlQueueCapacity': 60,
                 'warmStart': false, 'warmStartTimeoutMs': 900, 'evaluationLimitMs': 25, 'maxSpecBytes': 4096,
                 'timerTickMs': 4, 'warmStartRounds': 40, 'unknownService': {'holdMessages': 7, 'holdMs': 800},
                 'instances': {'maxLive': 10, 'historyEntries': 11, 'actionHistoryEntries': 12, 'timersPerInstance': 13,
                               'primitiveBurst': 14, 'primitiveRatePerSecond': 15.5, 'idleTimeoutMs': 16,
                               'tombstones': 17, 'tombstoneTtlMs': 18},
                 'services': ['classpath:specs/ack-service.scxml',
                              {'uri': 'file:/tmp/x.scxml', 'parameters': {'Retry': 300, 'Flag': true}}]}"""));
        MessageStoreConfig c = s.config();
        assertEquals(3, c.shards());
        assertEquals(MessageStoreConfig.Threading.CLOCK, c.threading());
        assertEquals(MessageStoreConfig.Threading.IO, MessageStoreSettings.parse(json("{'threading': 'io'}")).config().threading());
        assertEquals(50, c.dataQueueCapacity());
        assertEquals(60, c.controlQueueCapacity());
        assertFalse(c.warmStart());
        assertEquals(Duration.ofMillis(900), c.warmStartTimeout());
        assertEquals(Duration.ofMillis(25), c.evaluationLimit());
        assertEquals(4096, c.specLimits().maxBytes());
        assertEquals(Duration.ofMillis(4), c.timerTick());
        assertEquals(40, c.warmStartRounds());
        assertEquals(7, c.unknownServiceMessages());
        assertEquals(Duration.ofMillis(800), c.unknownServiceHold());
        assertEquals(new InstanceLimits(10, 11, 12, 13, 14, 15.5, 16, 17, 18), c.instances());
        assertEquals(URI.create("classpath:specs/ack-service.scxml"), s.services().get(0).uri());
        assertEquals(Map.of("Retry", "300", "Flag", "true"), s.services().get(1).parameters());
    }

    @Test
    void shouldNameTheFieldOfEveryError() throws Exception {
        assertTrue(error("{'shard': 2}").startsWith("overlay.messageStore.shard | "), "unknown field");
        assertTrue(error("{'shard': 2}").contains("unknown field (known: controlQueueCapacity, "), "lists the known fields");
        assertTrue(error("{'config': {}}").startsWith("overlay.messageStore.config | "), "a record component is no field");
        assertEquals("overlay.messageStore.shards | overlay.messageStore.shards: expected an integer, got '2'",
                error("{'shards': '2'}"));
        assertTrue(error("{'shards': 2.5}").endsWith("shards: expected an integer, got '2.5'"));
        assertTrue(error("{'shards': 99999999999}").endsWith("shards=99999999999 must be within 1..256"),
                "an int field does not wrap around");
        assertTrue(error("{'shards': 999999999999999999999999}").startsWith("overlay.messageStore.shards | "));
        assertTrue(error("{'shards': 0}").contains("overlay.messageStore.shards=0 must be within 1..256"));
        assertEquals("overlay.messageStore.threading | overlay.messageStore.threading: expected one of dedicated, clock, io, "
                + "got 'fast'", error("{'threading': 'fast'}"));
        assertTrue(error("{'timerTickMs': 1001}").contains("overlay.messageStore.timerTickMs=1001 must be within 0..1000"));
        assertTrue(error("{'timerTickMs': -1}").startsWith("overlay.messageStore.timerTickMs | "));
        assertTrue(error("{'warmStartRounds': 0}").contains("overlay.messageStore.warmStartRounds=0 must be within 1..1000000"));
        assertTrue(error("{'warmStart': 'yes'}").startsWith("overlay.messageStore.warmStart | "));
        assertTrue(error("{'instances': {'maxLive': -1}}").startsWith("overlay.messageStore.instances.maxLive | "));
        assertTrue(error("{'instances': {'burst': 1}}").startsWith("overlay.messageStore.instances.burst | "));
        assertTrue(error("{'instances': {'primitiveRatePerSecond': 'x'}}").endsWith("expected a number, got 'x'"));
        assertEquals("overlay.messageStore.sendBudget.burst | overlay.messageStore.sendBudget.burst: expected an integer, "
                + "got '1.5'", error("{'sendBudget': {'burst': 1.5}}"));
        assertTrue(error("{'sendBudget': {'perSecond': 0}}").startsWith("overlay.messageStore.sendBudget.perSecond | "));
        assertTrue(error("{'instances': []}").startsWith("overlay.messageStore.instances | "));
        assertTrue(error("{'unknownService': {'holdMs': 0}}").startsWith("overlay.messageStore.unknownService.holdMs | "));
        assertTrue(error("{'services': 'x'}").startsWith("overlay.messageStore.services | "));
        assertTrue(error("{'services': ['no scheme']}").startsWith("overlay.messageStore.services[0] | "));
        assertTrue(error("{'services': ['classpath:a', null]}").startsWith("overlay.messageStore.services[1] | "));
        assertTrue(error("{'services': [{'parameters': {}}]}").startsWith("overlay.messageStore.services[0].uri | "));
        assertTrue(error("{'services': [{'uri': 'classpath:a', 'parameters': {'P': [1]}}]}")
                .startsWith("overlay.messageStore.services[0].parameters.P | "));
        assertTrue(error("[]").startsWith("overlay.messageStore | "));
    }

    @Test
    void shouldBeFoundByTheServiceLoaderAndLoadTheListedServices() throws Exception {
        MessageStoreProvider provider = ServiceLoader.load(MessageStoreProvider.class).findFirst().orElseThrow();
        assertInstanceOf(StatecastMessageStoreProvider.class, provider);
        try (MessageStorePort port = provider.create(json("{'warmStart': false, 'shards': 1, "
                + "'services': [{'uri': 'classpath:specs/ack-service.scxml', 'parameters': {'Retry': 300}}]}"))) {
            MessageStore store = (MessageStore) port;
            assertEquals("300", store.services().get(42).parameters().value("Retry"));
        }
        JsonNode bad = json("{'services': ['classpath:specs/ack-service.scxml', 'classpath:hostile/xxe-file.scxml']}");
        OverlayConfigException e = assertThrows(OverlayConfigException.class, () -> provider.create(bad));
        assertEquals("overlay.messageStore.services[1]", e.field());
        assertTrue(e.getMessage().contains("xxe-file.scxml"), e.getMessage());
    }

    @Test
    void shouldReadTheSpecServer() throws Exception {
        assertTrue(MessageStoreSettings.parse(json("{}")).specServer().isEmpty());
        SpecServerSettings a = MessageStoreSettings.parse(json("{'specServer': {'uri': 'http://127.0.0.1:8080'}}"))
                .specServer().orElseThrow();
        assertEquals(new SpecServerSettings(URI.create("http://127.0.0.1:8080"), Duration.ofSeconds(5)), a);
        assertEquals(URI.create("http://127.0.0.1:8080/services/17"), a.serviceUri(17));
        SpecServerSettings b = MessageStoreSettings.parse(json(
                "{'specServer': {'uri': 'https://specs.example/base/', 'timeoutMs': 250}}")).specServer().orElseThrow();
        assertEquals(Duration.ofMillis(250), b.timeout());
        assertEquals(URI.create("https://specs.example/base/services/0"), b.serviceUri(0));
    }

    @Test
    void shouldNameTheSpecServerFieldInErrors() throws Exception {
        assertEquals("overlay.messageStore.specServer | overlay.messageStore.specServer: expected a section of fields",
                error("{'specServer': 'http://x'}"));
        assertTrue(error("{'specServer': {}}").startsWith("overlay.messageStore.specServer.uri | "
                + "overlay.messageStore.specServer.uri is required"));
        assertTrue(error("{'specServer': {'uri': 'http://x', 'port': 1}}").startsWith(
                "overlay.messageStore.specServer.port | overlay.messageStore.specServer.port: unknown field (known: caFile, "));
        assertEquals("overlay.messageStore.specServer.timeoutMs | overlay.messageStore.specServer.timeoutMs=0 "
                + "must be within 1..600000", error("{'specServer': {'uri': 'http://x', 'timeoutMs': 0}}"));
        assertTrue(error("{'specServer': {'uri': 'file:/tmp/specs'}}").startsWith("overlay.messageStore.specServer.uri | "
                + "overlay.messageStore.specServer.uri=file:/tmp/specs: file:/tmp/specs is not an http or https URI"));
        assertTrue(error("{'specServer': {'uri': 'http://x/?a=b'}}").contains("must have no query"));
        assertTrue(error("{'specServer': {'uri': 'no scheme'}}").startsWith("overlay.messageStore.specServer.uri | "));
    }

    @Test
    void shouldReadTheDeploymentFieldsAndTheTokenFile(@TempDir Path dir) throws Exception {
        SpecServerSettings d = MessageStoreSettings.parse(json("{'specServer': {'uri': 'http://x'}}")).specServer()
                .orElseThrow();
        assertEquals(SpecServerSettings.Retry.DEFAULTS, d.retry());
        assertEquals(SpecServerSettings.Publish.NEVER, d.publish());
        assertTrue(d.token().isEmpty());
        Path token = Files.writeString(dir.resolve("token"), "  secret-token-0123456789\n");
        SpecServerSettings s = MessageStoreSettings.parse(json("{'specServer': {'uri': 'http://x', 'tries': 7, "
                + "'retryIntervalMs': 100, 'retryMaxIntervalMs': 300, 'publishOnRequest': true, 'publishOnLoad': true, "
                + "'publishIntervalMs': 2000, 'maxPublishesPerMinute': 5, 'tokenFile': '" + token + "'}}"))
                .specServer().orElseThrow();
        assertEquals(new SpecServerSettings.Retry(7, Duration.ofMillis(100), Duration.ofMillis(300)), s.retry());
        assertEquals(new SpecServerSettings.Publish(true, true, Duration.ofSeconds(2), 5), s.publish());
        assertEquals("secret-token-0123456789", s.token().orElseThrow());
        assertFalse(s.toString().contains("secret"), "the token is never printed: " + s);
        assertEquals(List.of(100L, 200L, 300L, 300L), List.of(s.retry().delayAfter(1).toMillis(),
                s.retry().delayAfter(2).toMillis(), s.retry().delayAfter(3).toMillis(), s.retry().delayAfter(4).toMillis()));
    }

    @Test
    void shouldNameTheDeploymentFieldInErrors(@TempDir Path dir) throws Exception {
        assertEquals("overlay.messageStore.specServer.tries | overlay.messageStore.specServer.tries=0 must be within 1..100",
                error("{'specServer': {'uri': 'http://x', 'tries': 0}}"));
        assertTrue(error("{'specServer': {'uri': 'http://x', 'retryIntervalMs': 500, 'retryMaxIntervalMs': 100}}")
                .startsWith("overlay.messageStore.specServer.retryMaxIntervalMs | "));
        assertTrue(error("{'specServer': {'uri': 'http://x', 'publishOnLoad': 'yes'}}")
                .startsWith("overlay.messageStore.specServer.publishOnLoad | "));
        assertTrue(error("{'specServer': {'uri': 'http://x', 'tokenFile': '" + dir.resolve("absent") + "'}}")
                .startsWith("overlay.messageStore.specServer.tokenFile | "));
        Path shortToken = Files.writeString(dir.resolve("short"), "tooshort");
        String e = error("{'specServer': {'uri': 'http://x', 'tokenFile': '" + shortToken + "'}}");
        assertTrue(e.contains("must have 16..1024 characters"), e);
        assertFalse(e.contains("tooshort"), "the token is never in an error: " + e);
    }

    @Test
    void shouldReadTrustedKeysAndTheCaFileAndNameThemInErrors(@TempDir Path dir) throws Exception {
        SigningKey k = SigningKey.generate();
        k.write(dir.resolve("pub"));
        MessageStoreSettings s = MessageStoreSettings.parse(json("{'trustedKeys': ['" + dir.resolve("pub.pub") + "']}"));
        assertEquals(java.util.Set.of(k.keyId()), s.trustedKeys().orElseThrow().keys().keySet());
        assertTrue(MessageStoreSettings.parse(json("{}")).trustedKeys().isEmpty(), "absent: no signature needed");
        MessageStore store = (MessageStore) new StatecastMessageStoreProvider().create(
                json("{'warmStart': false, 'trustedKeys': ['" + dir.resolve("pub.pub") + "']}"));
        try {
            assertEquals(s.trustedKeys(), store.trustedKeys());
        } finally {
            store.close();
        }
        assertTrue(error("{'trustedKeys': []}").startsWith("overlay.messageStore.trustedKeys | "));
        assertTrue(error("{'trustedKeys': 'x.pub'}").startsWith("overlay.messageStore.trustedKeys | "));
        String absent = error("{'trustedKeys': ['" + dir.resolve("pub.pub") + "', '" + dir.resolve("absent.pub") + "']}");
        assertTrue(absent.startsWith("overlay.messageStore.trustedKeys[1] | ") && absent.contains("absent.pub"), absent);
        String priv = error("{'trustedKeys': ['" + dir.resolve("pub.key") + "']}");
        assertTrue(priv.contains("private key"), priv);

        // caFile: a PEM certificate made with the JDK's keytool
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Path ks = dir.resolve("ca.p12");
        for (List<String> cmd : List.of(
                List.of(keytool.toString(), "-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
                        "-dname", "CN=ca", "-validity", "2", "-keystore", ks.toString(), "-storetype", "PKCS12",
                        "-storepass", "test-only", "-keypass", "test-only"),
                List.of(keytool.toString(), "-exportcert", "-rfc", "-alias", "ca", "-keystore", ks.toString(),
                        "-storepass", "test-only", "-file", dir.resolve("ca.pem").toString()))) {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("keytool.log").toFile())
                    .start();
            assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0,
                    Files.readString(dir.resolve("keytool.log")));
        }
        MessageStoreSettings t = MessageStoreSettings.parse(json("{'specServer': {'uri': 'https://127.0.0.1:1', "
                + "'caFile': '" + dir.resolve("ca.pem") + "'}}"));
        assertTrue(t.specServer().orElseThrow().tls().isPresent());
        String http = error("{'specServer': {'uri': 'http://127.0.0.1:1', 'caFile': '" + dir.resolve("ca.pem") + "'}}");
        assertTrue(http.startsWith("overlay.messageStore.specServer.caFile | ") && http.contains("https"), http);
        String notPem = error("{'specServer': {'uri': 'https://x', 'caFile': '" + dir.resolve("pub.pub") + "'}}");
        assertTrue(notPem.startsWith("overlay.messageStore.specServer.caFile | "), notPem);
    }
}
