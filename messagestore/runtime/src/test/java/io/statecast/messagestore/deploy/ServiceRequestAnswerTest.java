package io.statecast.messagestore.deploy;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.metrics.DeploymentMetrics;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.overlay.testkit.Await;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The answering side of the Service Request message: a node that has the spec publishes it to the
 * (tiny, real, loopback) spec server, only when permitted, at most once per ServiceID per interval
 * and within a rate limit, and ignores requests it cannot or must not answer.
 */
class ServiceRequestAnswerTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final String TOKEN = "test-token-0123456789abcdef";

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)).tree(a(1), a(5)));
    private FakeSpecServer server;
    private MessageStore store;
    private SpecDownloader deployment;
    private long nextId = 1;

    @BeforeEach
    void start() throws IOException {
        server = new FakeSpecServer();
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withThreading(MessageStoreConfig.Threading.CLOCK), Specs.loader(), SpecResolver.defaults());
        store.open(overlay);
    }

    @AfterEach
    void stop() {
        if (deployment != null) {
            deployment.close();
        }
        store.close();
        server.close();
    }

    private void deploy(SpecServerSettings.Publish publish) {
        deployment = new SpecDownloader(store, new SpecServerSettings(server.uri(), Duration.ofSeconds(10))
                .withToken(TOKEN).withPublish(publish), clock::nanoTime);
        store.onUnknownService(deployment);
    }

    /** A Service Request for {@code serviceId} from node 1, unicast to this node (9). */
    private OverlayMessage request(int serviceId) {
        return Messages.control(serviceId, FsmExtension.SERVICE_REQUEST_TYPE, nextId++, 1, 9, 5);
    }

    private String context() {
        return "seed " + SEED + ", " + deployment.metrics() + ", puts " + server.puts.size();
    }

    @Test
    void shouldPublishOnceForAFloodOfRequestsAndIgnoreWhatItCannotAnswer() throws Exception {
        deploy(new SpecServerSettings.Publish(true, false, Duration.ofSeconds(10), 30));
        store.loadService(URI.create("classpath:specs/ack-service.scxml"));
        Random random = new Random(SEED);
        // 200 requests for the loaded service 42 mixed with 20 for 43, which this node does not have
        List<Integer> ids = new ArrayList<>(Collections.nCopies(200, 42));
        ids.addAll(Collections.nCopies(20, 43));
        Collections.shuffle(ids, random);
        int taken = 0;
        for (int id : ids) {
            taken += store.receiveMessage(request(id), Arrival.DELIVERED) ? 1 : 0;
        }
        Await.until(() -> deployment.metrics().requestsAnswered() == 1, 10, this::context);
        assertEquals(1, taken, context());
        assertEquals(1, server.puts.size(), "one publish for 200 requests: " + context());
        FakeSpecServer.Put put = server.puts.get(0);
        assertEquals(42, put.serviceId());
        assertArrayEquals(Specs.bytes("specs/ack-service.scxml"), put.body(), "the exact document loaded");
        assertEquals("Bearer " + TOKEN, put.authorization());
        assertEquals("*", put.ifNoneMatch(), "a publish never overwrites");
        DeploymentMetrics m = deployment.metrics();
        assertEquals(List.of(220L, 1L, 20L, 199L, 1L), List.of(m.requestsReceived(), m.requestsAnswered(),
                m.requestsIgnored(), m.requestsThrottled(), m.publishes()), this::context);
        assertEquals(219, store.metrics().node().drops(DropReason.SERVICE_REQUEST), this::context);
        assertEquals(m, store.metrics().deployment());

        // after the per-service interval the same ServiceID may be published again; the server has it: fine
        clock.advanceBy(Duration.ofSeconds(11));
        assertTrue(store.receiveMessage(request(42), Arrival.DELIVERED));
        Await.until(() -> deployment.metrics().publishesAlreadyThere() == 1, 10, this::context);
        assertEquals(2, deployment.metrics().requestsAnswered(), this::context);
        assertEquals(1, server.documents.size());
    }

    @Test
    void shouldBoundPublishesOverAllServiceIdsPerMinute() throws Exception {
        deploy(new SpecServerSettings.Publish(true, false, Duration.ofSeconds(1), 2));
        store.loadService(URI.create("classpath:specs/ack-service.scxml"));
        store.loadService(URI.create("classpath:specs/minimal.scxml"));
        store.loadService(URI.create("classpath:specs/flow-counter.scxml"));
        assertTrue(store.receiveMessage(request(42), Arrival.DELIVERED));
        assertTrue(store.receiveMessage(request(7), Arrival.DELIVERED));
        assertFalse(store.receiveMessage(request(88), Arrival.DELIVERED), "the third in a minute is over the limit");
        Await.until(() -> server.puts.size() == 2, 10, this::context);
        // 2 a minute: one more after 30 s
        clock.advanceBy(Duration.ofSeconds(31));
        assertTrue(store.receiveMessage(request(88), Arrival.DELIVERED));
        assertFalse(store.receiveMessage(request(42), Arrival.DELIVERED), "no token left");
        Await.until(() -> deployment.metrics().requestsAnswered() == 3, 10, this::context);
        assertEquals(List.of(42, 7, 88), server.puts.stream().map(FakeSpecServer.Put::serviceId).toList());
        assertEquals(2, deployment.metrics().requestsThrottled(), this::context);
    }

    @Test
    void shouldCountRequestsAsDroppedWithoutASpecServerAndPassRelayedOnesOn() throws Exception {
        store.loadService(URI.create("classpath:specs/ack-service.scxml"));
        assertFalse(store.receiveMessage(request(42), Arrival.DELIVERED));
        assertEquals(1, store.metrics().node().drops(DropReason.SERVICE_REQUEST));
        assertEquals(DeploymentMetrics.NONE, store.metrics().deployment());
        OverlayMessage relayed = Messages.control(43, FsmExtension.SERVICE_REQUEST_TYPE, 78, 1, 3, 5);
        assertTrue(store.receiveMessage(relayed, Arrival.TRANSIT), "relayed: the engine forwards it");
        assertEquals(1, store.metrics().node().drops(DropReason.SERVICE_REQUEST));
        assertEquals(0, store.metrics().heldUnknown(), "a request is never held as a message of an unknown service");
        assertTrue(server.puts.isEmpty());
    }

    @Test
    void shouldIgnoreRequestsWhenPublishingIsNotPermittedOrTheRequestIsNotAddressedToThisNode() throws Exception {
        deploy(SpecServerSettings.Publish.NEVER);
        store.loadService(URI.create("classpath:specs/ack-service.scxml"));
        assertFalse(store.receiveMessage(request(42), Arrival.DELIVERED));
        deployment.close();
        deploy(new SpecServerSettings.Publish(true, false, Duration.ofSeconds(10), 30));
        store.loadService(URI.create("classpath:specs/ack-service.scxml"));
        OverlayMessage multicast = Messages.multicastControl(42, FsmExtension.SERVICE_REQUEST_TYPE, 77, 1, 1, 5);
        assertFalse(store.receiveMessage(multicast, Arrival.DELIVERED), "a multicast request makes nobody publish");
        OverlayMessage relayed = Messages.control(42, FsmExtension.SERVICE_REQUEST_TYPE, 78, 1, 3, 5);
        assertTrue(store.receiveMessage(relayed, Arrival.TRANSIT), "relayed: left to the engine");
        assertEquals(List.of(1L, 1L, 0L), List.of(deployment.metrics().requestsReceived(),
                deployment.metrics().requestsIgnored(), deployment.metrics().publishes()), this::context);
        assertTrue(server.puts.isEmpty());
    }

    @Test
    void shouldPublishOnLoadAndTreatTheIdenticalStoredDocumentAsSuccessButNeverOverwriteAnother() throws Exception {
        deploy(new SpecServerSettings.Publish(false, true, Duration.ofSeconds(10), 30));
        store.loadService(URI.create("classpath:specs/ack-service.scxml"));
        Await.until(() -> deployment.metrics().publishes() == 1, 10, this::context);
        store.loadService(URI.create("classpath:specs/ack-service.scxml"));
        Await.until(() -> deployment.metrics().publishesAlreadyThere() == 1, 10, this::context);
        byte[] other = (new String(Specs.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8) + "<!-- v2 -->")
                .getBytes(StandardCharsets.UTF_8);
        server.documents.put(7, other);
        store.loadService(URI.create("classpath:specs/minimal.scxml"));
        Await.until(() -> deployment.metrics().publishConflicts() == 1, 10, this::context);
        assertArrayEquals(other, server.documents.get(7), "the other version stays");
        assertEquals(0, deployment.metrics().requestsReceived());
    }
}
