package io.statecast.messagestore.deploy;

import io.statecast.messagestore.StatecastMessageStoreProvider;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.metrics.DeploymentMetrics;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.overlay.testkit.Await;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.overlay.testkit.RecordingOverlay.ToApplication;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** On-demand download of unknown services' specs from a (tiny, real, loopback) spec server. */
class SpecDownloaderTest {

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)).tree(a(1), a(5)));
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    private final CountDownLatch gate = new CountDownLatch(1);
    private final Map<Integer, byte[]> documents = new ConcurrentHashMap<>();
    /** Whether the server sends the SHA-256 ETag, as the real one always does. */
    private volatile boolean sendEtag = true;
    private HttpServer server;
    private ExecutorService executor;
    private MessageStore store;
    private SpecDownloader downloader;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        executor = Executors.newCachedThreadPool();
        server.setExecutor(executor);
        server.createContext("/services/", this::serve);
        server.start();
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withThreading(MessageStoreConfig.Threading.CLOCK).withUnknownServiceHold(100, Duration.ofMillis(500)),
                Specs.loader(), SpecResolver.defaults());
        store.open(overlay);
        downloader = new SpecDownloader(store, new SpecServerSettings(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), Duration.ofSeconds(10)));
        store.onUnknownService(downloader);
    }

    @AfterEach
    void stop() {
        gate.countDown();
        downloader.close();
        store.close();
        server.stop(0);
        executor.shutdownNow();
    }

    /** Answers the document stored for the id (after the gate opens), 404 otherwise; counts requests per path. */
    private void serve(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
        try {
            gate.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        byte[] doc;
        try {
            doc = documents.get(Integer.parseInt(path.substring("/services/".length())));
        } catch (NumberFormatException e) {
            doc = null;
        }
        if (doc == null) {
            ex.sendResponseHeaders(404, -1);
            ex.close();
            return;
        }
        if (sendEtag) {
            ex.getResponseHeaders().set("ETag", "\"" + FakeSpecServer.sha256(doc) + "\"");
        }
        ex.sendResponseHeaders(200, doc.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(doc);
        }
    }

    private static OverlayMessage data(long id) {
        return Messages.unicastPayload(42, id, 1, 9, 5, "m" + id);
    }

    private void settle() {
        clock.advanceBy(Duration.ZERO);
    }

    private int hits(String path) {
        AtomicInteger n = hits.get(path);
        return n == null ? 0 : n.get();
    }

    @Test
    void shouldDownloadAnUnknownServiceOnceAndProcessItsHeldMessagesInOrder() {
        documents.put(42, Specs.bytes("specs/ack-service.scxml"));
        for (long i = 1; i <= 5; i++) {
            assertTrue(store.receiveMessage(data(i), Arrival.DELIVERED));
        }
        settle();
        // the server holds the answer until all five are held, so a second download would show up here
        Await.until(() -> hits("/services/42") == 1, 10, () -> "hits " + hits);
        assertEquals(5, store.metrics().heldUnknown());
        gate.countDown();
        Await.until(() -> downloader.metrics().downloadsInstalled() == 1, 10, () -> String.valueOf(downloader.metrics()));
        settle();
        assertEquals(0, store.metrics().heldUnknown());
        List<Long> delivered = overlay.drain().stream().filter(ToApplication.class::isInstance)
                .map(c -> ((ToApplication) c).message().fsm().messageId()).toList();
        // one shard: the store keeps arrival order per shard, which the release must not break
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), delivered, "held messages processed in arrival order");
        assertEquals(1, hits("/services/42"), "one download for five messages: " + hits);
        DeploymentMetrics m = downloader.metrics();
        assertEquals(List.of(1L, 1L, 1L, 0L, 0L, 0L, 0L), List.of(m.downloadsStarted(), m.downloadAttempts(),
                m.downloadsInstalled(), m.downloadsNotFound(), m.downloadsRefused(), m.downloadsFailed(),
                m.requestsSent()), m::toString);
        assertEquals(m, store.metrics().deployment(), "the store shows the downloader's counters");
        assertTrue(store.receiveMessage(data(6), Arrival.DELIVERED));
        settle();
        assertEquals(1, hits("/services/42"), "a known service is not downloaded again");
    }

    @Test
    void shouldSendServiceRequestsAndDropTheHeldMessagesAfterTheConfiguredTries() {
        gate.countDown();
        downloader.close();
        downloader = new SpecDownloader(store, downloader.server().withRetry(
                new SpecServerSettings.Retry(3, Duration.ofMillis(5), Duration.ofMillis(10))));
        store.onUnknownService(downloader);
        assertTrue(store.receiveMessage(data(1), Arrival.DELIVERED));
        assertTrue(store.receiveMessage(data(2), Arrival.DELIVERED));
        settle();
        Await.until(() -> downloader.metrics().downloadsAbandoned() == 1, 10, () -> String.valueOf(downloader.metrics()));
        DeploymentMetrics m = downloader.metrics();
        assertEquals(3, hits("/services/42"), "three tries: " + hits);
        assertEquals(List.of(1L, 3L, 3L, 2L, 2L, 0L), List.of(m.downloadsStarted(), m.downloadAttempts(),
                m.downloadsNotFound(), m.requestsSent(), m.heldDropped(), m.downloadsInstalled()), m::toString);
        assertEquals(0, store.metrics().heldUnknown());
        assertEquals(2, store.metrics().node().drops(DropReason.SPEC_UNAVAILABLE));
        // a Service Request after each 404 but the last: MessageType -1, the ServiceID, no body, unicast to the source
        List<SendControl> requests = overlay.drain().stream().filter(SendControl.class::isInstance)
                .map(SendControl.class::cast).toList();
        assertEquals(2, requests.size(), requests::toString);
        for (SendControl r : requests) {
            assertEquals(42, r.serviceId());
            assertEquals(FsmExtension.SERVICE_REQUEST_TYPE, r.messageType());
            assertEquals(null, r.body());
            assertEquals(Route.unicast(a(1)), r.route());
        }
        // the next message of the service starts over
        assertTrue(store.receiveMessage(data(3), Arrival.DELIVERED));
        settle();
        Await.until(() -> downloader.metrics().downloadsAbandoned() == 2, 10, () -> String.valueOf(downloader.metrics()));
        assertEquals(2, downloader.metrics().downloadsStarted());
        assertEquals(3, store.metrics().node().drops(DropReason.SPEC_UNAVAILABLE));
    }

    @Test
    void shouldInstallWhatTheSourcePublishedInAnswerToTheServiceRequest() {
        gate.countDown();
        assertTrue(store.receiveMessage(data(1), Arrival.DELIVERED));
        assertTrue(store.receiveMessage(data(2), Arrival.DELIVERED));
        settle();
        // the source answers the request by publishing (here: the test, as soon as the request is sent)
        Await.until(() -> {
            boolean asked = overlay.drain().stream().anyMatch(c -> c instanceof SendControl sc
                    && sc.messageType() == FsmExtension.SERVICE_REQUEST_TYPE && sc.route().equals(Route.unicast(a(1))));
            if (asked) {
                documents.put(42, Specs.bytes("specs/ack-service.scxml"));
            }
            return asked;
        }, 10, () -> String.valueOf(downloader.metrics()));
        Await.until(() -> downloader.metrics().downloadsInstalled() == 1, 10, () -> String.valueOf(downloader.metrics()));
        settle();
        assertEquals(List.of(1L, 2L), overlay.drain().stream().filter(ToApplication.class::isInstance)
                .map(c -> ((ToApplication) c).message().fsm().messageId()).toList());
        DeploymentMetrics m = downloader.metrics();
        // usually two tries; a slow test thread may let one more retry find nothing yet
        assertEquals(m.downloadAttempts() - 1, m.downloadsNotFound(), m::toString);
        assertEquals(m.downloadsNotFound(), m.requestsSent(), m::toString);
        assertEquals(0, m.downloadsAbandoned(), m::toString);
    }

    @Test
    void shouldRefuseADownloadThatDoesNotValidateOrDeclaresAnotherService() {
        gate.countDown();
        documents.put(42, "<scxml xmlns='http://www.w3.org/2005/07/scxml'><not-a-spec/>".getBytes(StandardCharsets.UTF_8));
        assertTrue(store.receiveMessage(data(1), Arrival.DELIVERED));
        settle();
        Await.until(() -> downloader.metrics().downloadsRefused() == 1, 10, () -> String.valueOf(downloader.metrics()));
        assertEquals(1, store.metrics().heldUnknown(), "still held: nothing was installed");
        clock.advanceBy(Duration.ofMillis(600));
        assertEquals(1, store.metrics().node().drops(DropReason.UNKNOWN_SERVICE_EXPIRED));

        documents.put(42, Specs.bytes("specs/minimal.scxml")); // a valid spec, but of ServiceID 7
        assertTrue(store.receiveMessage(data(2), Arrival.DELIVERED));
        settle();
        Await.until(() -> downloader.metrics().downloadsRefused() == 2, 10, () -> String.valueOf(downloader.metrics()));
        DeploymentMetrics m = downloader.metrics();
        assertEquals(List.of(2L, 0L, 0L, 2L, 0L), List.of(m.downloadsStarted(), m.downloadsInstalled(),
                m.downloadsNotFound(), m.downloadsRefused(), m.downloadsFailed()), m::toString);
        assertEquals(2, hits("/services/42"), "asked again once the first held message had expired");
        assertEquals(1, store.metrics().heldUnknown());
    }

    @Test
    void shouldNeverReplaceALoadedSpecWithABadDownload() throws Exception {
        gate.countDown();
        store.loadService(URI.create("classpath:specs/ack-service.scxml"));
        documents.put(42, "garbage".getBytes(StandardCharsets.UTF_8));
        downloader.serviceNeeded(42, data(1)); // as if asked anyway
        Await.until(() -> downloader.metrics().downloadsRefused() == 1, 10, () -> String.valueOf(downloader.metrics()));
        assertTrue(store.receiveMessage(data(2), Arrival.DELIVERED));
        settle();
        assertEquals(1, overlay.drain().stream().filter(ToApplication.class::isInstance).count(),
                "the loaded spec still serves");
    }

    @Test
    void shouldRefuseADownloadWithoutAVerifiableDigest() {
        gate.countDown();
        sendEtag = false;
        documents.put(42, Specs.bytes("specs/ack-service.scxml"));
        downloader.serviceNeeded(42, data(1));
        Await.until(() -> downloader.metrics().downloadsAbandoned() == 1, 10, () -> String.valueOf(downloader.metrics()));
        DeploymentMetrics m = downloader.metrics();
        assertEquals(0, m.downloadsInstalled(), m::toString);
        assertEquals(m.downloadAttempts(), m.downloadsFailed(), m::toString);
        assertEquals(null, store.service(42));
    }

    @Test
    void shouldInstallOnlySpecsSignedByATrustedKeyAndKeepWhatIsLoaded() throws Exception {
        gate.countDown();
        SigningKey publisher = SigningKey.generate();
        SigningKey stranger = SigningKey.generate();
        store.trust(TrustedKeys.of(List.of(publisher.publicKey())));
        byte[] unsigned = Specs.bytes("specs/ack-service.scxml");
        byte[] signed = SpecSignatures.sign("ack", unsigned, publisher, store.config().specLimits());

        documents.put(42, unsigned);
        downloader.serviceNeeded(42, data(1));
        Await.until(() -> downloader.metrics().downloadsUntrusted() == 1, 10, () -> String.valueOf(downloader.metrics()));
        documents.put(42, SpecSignatures.sign("ack", unsigned, stranger, store.config().specLimits()));
        downloader.serviceNeeded(42, data(2));
        Await.until(() -> downloader.metrics().downloadsUntrusted() == 2, 10, () -> String.valueOf(downloader.metrics()));
        String tampered = new String(signed, StandardCharsets.UTF_8).replace("</scxml>", "<!-- ok --></scxml>")
                .replace("<ServiceName>", "<ServiceName>x");
        documents.put(42, tampered.getBytes(StandardCharsets.UTF_8));
        downloader.serviceNeeded(42, data(3));
        Await.until(() -> downloader.metrics().downloadsUntrusted() == 3, 10, () -> String.valueOf(downloader.metrics()));
        assertEquals(null, store.service(42), "nothing untrusted was installed");
        assertEquals(3, store.untrustedSpecs());

        documents.put(42, signed);
        downloader.serviceNeeded(42, data(4));
        Await.until(() -> downloader.metrics().downloadsInstalled() == 1, 10, () -> String.valueOf(downloader.metrics()));
        String loaded = store.service(42).spec().sha256Hex();
        assertEquals(FakeSpecServer.sha256(signed), loaded);

        // an unsigned replacement loaded over HTTP is refused; the signed version stays
        documents.put(42, unsigned);
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/services/42");
        ServiceLoadException e = org.junit.jupiter.api.Assertions.assertThrows(ServiceLoadException.class,
                () -> store.loadService(uri));
        assertTrue(e.getMessage().contains("not signed"), e.getMessage());
        assertEquals(loaded, store.service(42).spec().sha256Hex());
        assertEquals(4, store.untrustedSpecs());
        DeploymentMetrics m = downloader.metrics();
        assertEquals(List.of(3L, 0L, 0L), List.of(m.downloadsUntrusted(), m.downloadsRefused(), m.downloadsFailed()),
                m::toString);
        // files are the node's own: not checked
        store.loadService(URI.create("classpath:specs/minimal.scxml"));
    }

    @Test
    void shouldBeWiredByTheProviderWhenASpecServerIsConfigured() throws Exception {
        gate.countDown();
        documents.put(42, Specs.bytes("specs/ack-service.scxml"));
        var section = new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"threading\": \"clock\", "
                + "\"shards\": 1, \"warmStart\": false, \"specServer\": {\"uri\": \"http://127.0.0.1:"
                + server.getAddress().getPort() + "\", \"timeoutMs\": 10000}}");
        MessageStore s = (MessageStore) new StatecastMessageStoreProvider().create(section);
        try {
            s.open(overlay);
            assertTrue(s.receiveMessage(data(7), Arrival.DELIVERED));
            settle();
            // the release of held messages is queued from the downloader thread: settle until it ran
            java.util.concurrent.atomic.AtomicLong delivered = new java.util.concurrent.atomic.AtomicLong();
            Await.until(() -> {
                settle();
                delivered.addAndGet(overlay.drain().stream().filter(ToApplication.class::isInstance).count());
                return delivered.get() >= 1;
            }, 10, () -> "hits " + hits + ", held " + s.metrics().heldUnknown());
            settle();
            delivered.addAndGet(overlay.drain().stream().filter(ToApplication.class::isInstance).count());
            assertEquals(1, delivered.get());
            assertEquals(1, hits("/services/42"));
        } finally {
            s.close();
        }
    }
}
