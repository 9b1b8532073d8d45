package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.deploy.HttpSpecSource;
import io.statecast.messagestore.deploy.SigningKey;
import io.statecast.messagestore.deploy.SpecDownloader;
import io.statecast.messagestore.deploy.SpecServerSettings;
import io.statecast.messagestore.deploy.SpecSignatures;
import io.statecast.messagestore.deploy.TlsTrust;
import io.statecast.messagestore.deploy.TrustedKeys;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS for the spec server: clients and nodes that trust its certificate, and ones that do not. */
class TlsSpecServerTest {

    @TempDir
    static Path certs;

    private static TestCertificates.Identity server;
    private static TestCertificates.Identity impostor;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeCertificates() throws Exception {
        server = TestCertificates.create(certs, "spec-server");
        impostor = TestCertificates.create(certs, "impostor");
    }

    private static SpecServer start(Path dir, TestCertificates.Identity id) throws SpecServerException {
        SpecServerConfig c = SpecServerConfig.secured(dir, Http.TOKEN).withTls(id.tls());
        return SpecServer.start(c, new BasicSpecCheck());
    }

    @Test
    void aClientTrustingTheCertificateTalksHttpsAndAWrongCertificateIsRefused() throws Exception {
        try (SpecServer s = start(dir, server)) {
            assertTrue(s.baseUri().toString().startsWith("https://127.0.0.1:"), s.baseUri().toString());
            SSLContext trust = TlsTrust.trusting(server.certificate());
            SpecServerClient c = new SpecServerClient(s.baseUri(), Optional.of(Http.TOKEN),
                    SpecServerClient.Options.DEFAULTS, Optional.of(trust));
            byte[] doc = TestSpecs.spec(80, "eighty");
            c.put(80, doc, Optional.empty());
            assertArrayEquals(doc, ((SpecServerClient.Fetch.Found) c.get(80, Optional.empty())).document());

            // the node's own reader, with the digest required
            HttpSpecSource node = new HttpSpecSource("https", Duration.ofSeconds(10), Duration.ofSeconds(10),
                    Optional.of(trust), true);
            assertArrayEquals(doc, node.read(s.baseUri().resolve("services/80"), 1 << 20));

            // a client that trusts another certificate, or only the JDK's CAs, refuses the server
            HttpSpecSource fooled = new HttpSpecSource("https", Duration.ofSeconds(10), Duration.ofSeconds(10),
                    Optional.of(TlsTrust.trusting(impostor.certificate())), true);
            IOException e = assertThrows(IOException.class, () -> fooled.read(s.baseUri().resolve("services/80"), 1 << 20));
            assertTrue(String.valueOf(e.getMessage()).toLowerCase().contains("certif")
                    || String.valueOf(e.getMessage()).toLowerCase().contains("pkix"), e.toString());
            SpecServerClient defaults = SpecServerClient.create(s.baseUri());
            SpecServerClientException d = assertThrows(SpecServerClientException.class, defaults::list);
            assertEquals(0, d.status(), d.getMessage());

            // plain HTTP to the TLS port gets no HTTP answer; the server carries on
            try (Socket raw = new Socket("127.0.0.1", s.address().getPort())) {
                raw.setSoTimeout(10_000);
                OutputStream out = raw.getOutputStream();
                out.write("GET /services HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = raw.getInputStream();
                byte[] answer = in.readNBytes(5);
                assertTrue(answer.length == 0 || !new String(answer, StandardCharsets.US_ASCII).startsWith("HTTP/"),
                        new String(answer, StandardCharsets.US_ASCII));
            } catch (java.net.SocketException reset) {
                // a reset is a refusal too
            }
            assertEquals(1, c.health());
        }
    }

    @Test
    void aNodeWithTrustedKeysDownloadsSignedSpecsOverHttpsOnly() throws Exception {
        SigningKey publisher = SigningKey.generate();
        try (SpecServer s = start(dir, server);
                MessageStore store = new MessageStore(MessageStoreConfig.defaults().withWarmStart(false))) {
            SpecServerClient c = new SpecServerClient(s.baseUri(), Optional.of(Http.TOKEN),
                    SpecServerClient.Options.DEFAULTS, Optional.of(TlsTrust.trusting(server.certificate())));
            byte[] unsigned = TestSpecs.spec(81, "eighty-one");
            c.put(81, unsigned, Optional.empty());
            c.put(82, SpecSignatures.sign("t", TestSpecs.spec(82, "eighty-two"), publisher, SpecLimits.DEFAULTS),
                    Optional.empty());
            store.trust(TrustedKeys.of(List.of(publisher.publicKey())));
            SpecServerSettings settings = new SpecServerSettings(s.baseUri(), Duration.ofSeconds(10))
                    .withRetry(new SpecServerSettings.Retry(1, Duration.ofMillis(10), Duration.ofMillis(10)))
                    .withTls(TlsTrust.trusting(server.certificate()));
            try (SpecDownloader downloader = new SpecDownloader(store, settings)) {
                store.onUnknownService(downloader);
                downloader.serviceNeeded(81, null);
                downloader.serviceNeeded(82, null);
                Await.until(() -> downloader.metrics().downloadsUntrusted() == 1 && downloader.metrics().downloadsInstalled() == 1,
                        Duration.ofSeconds(20),
                        () -> "both downloads decided");
                assertNull(store.service(81), "the unsigned spec is not installed");
                assertEquals("eighty-two", store.service(82).spec().service().name());
            }
            SpecServerSettings fooled = new SpecServerSettings(s.baseUri(), Duration.ofSeconds(10))
                    .withRetry(new SpecServerSettings.Retry(1, Duration.ofMillis(10), Duration.ofMillis(10)))
                    .withTls(TlsTrust.trusting(impostor.certificate()));
            try (SpecDownloader downloader = new SpecDownloader(store, fooled)) {
                store.unloadService(82);
                downloader.serviceNeeded(82, null);
                Await.until(() -> downloader.metrics().downloadsFailed() == 1, Duration.ofSeconds(20),
                        () -> "the download failed");
                assertNull(store.service(82), "nothing from a server whose certificate the node does not trust");
            }
        }
    }

    @Test
    void theCommandServesHttpsAndRefusesUnsignedUploadsAsAChildProcess() throws Exception {
        SigningKey publisher = SigningKey.generate();
        publisher.write(dir.resolve("publisher"));
        Path token = Files.writeString(dir.resolve("token"), Http.TOKEN);
        Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        try (ChildServer child = ChildServer.start(dir.resolve("logs"), "tls", List.of("--dir", dir.resolve("specs").toString(),
                "--token-file", token.toString(), "--trust", dir.resolve("publisher.pub").toString(),
                "--tls-cert", server.certificate().toString(), "--tls-key", server.privateKey().toString()))) {
            URI base = child.awaitListening(Duration.ofSeconds(60));
            assertTrue(base.getScheme().equals("https"), base.toString());
            SpecServerClient c = new SpecServerClient(base, Optional.of(Http.TOKEN), SpecServerClient.Options.DEFAULTS,
                    Optional.of(TlsTrust.trusting(server.certificate())));
            SpecServerClientException e = assertThrows(SpecServerClientException.class,
                    () -> c.put(90, TestSpecs.spec(90, "ninety"), Optional.empty()));
            assertEquals(403, e.status(), e.getMessage());
            byte[] signed = SpecSignatures.sign("t", TestSpecs.spec(90, "ninety"), SigningKey.read(dir.resolve("publisher.key")),
                    SpecLimits.DEFAULTS);
            assertTrue(c.put(90, signed, Optional.empty()).created());
            assertEquals(Optional.of(publisher.keyId()), c.history(90).log().get(0).signedBy());
            child.terminate();
            assertTrue(child.stderr().contains("stopped"), "the shutdown hook closed the server:\n" + child.stderr());
        }
    }

    @Test
    void refusesAnUnusableCertificateNamingIt() throws Exception {
        Path bogus = Files.writeString(dir.resolve("bogus.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        SpecServerException e = assertThrows(SpecServerException.class, () -> SpecServer.start(
                SpecServerConfig.secured(dir.resolve("s"), Http.TOKEN).withTls(new SpecServerConfig.Tls(bogus,
                        server.privateKey())), new BasicSpecCheck()));
        assertTrue(e.getMessage().contains(bogus.toString()), e.getMessage());
        // the directory is released: a server can start on it
        start(dir.resolve("s"), server).close();
    }
}
