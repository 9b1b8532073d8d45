package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Keys;
import io.statecast.messagestore.support.Messages;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.ScratchStore;
import io.statecast.overlay.substrate.VirtualTimerService;
import io.statecast.overlay.testkit.Await;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.testkit.RecordingOverlay;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The store on its own shard threads: confinement of instances, and the watchdog. */
class MessageStoreThreadsTest {

    private static final ServiceSpec ACK = Specs.load("specs/ack-service.scxml");

    /** A stand-in overlay of node 9 on a virtual clock: every call recorded with its thread. */
    private static RecordingOverlay overlay() {
        return new RecordingOverlay(a(9), new VirtualTimerService(), new FixedTopology(a(9)).tree(a(1), a(5)));
    }

    private MessageStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void shouldHoldDataBackWhileTheApplicationIsFullAndGoOnWithControlMessages() throws Exception {
        RecordingOverlay overlay = overlay();
        overlay.deliveryWaitNanos(TimeUnit.SECONDS.toNanos(60));
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false), Specs.loader(),
                SpecResolver.defaults());
        store.open(overlay);
        store.install(ACK);
        // this node's own message 1 waits for its acknowledgement
        store.receiveMessage(Messages.unicastPayload(42, 1, 9, 5, 9, "mine"), Arrival.DELIVERED);
        Await.until(() -> store.metrics().node().messages() == 1, 30, () -> store.metrics().format());

        overlay.applicationFull(true);
        store.receiveMessage(Messages.unicastPayload(42, 2, 1, 9, 1, "for the application"), Arrival.DELIVERED);
        store.receiveMessage(io.statecast.overlay.message.Origin.attach(Messages.control(42, 2, 1, 5, 9, 5), Messages.a(9)),
                Arrival.DELIVERED); // message 1's ACK, naming this node as the origin
        Await.until(() -> store.metrics().node().messages() == 2, 30, () -> "the ACK went past the held data\n"
                + store.metrics().format());
        MessageStoreMetrics m = store.metrics();
        assertEquals(1, m.node().created(), "message 2 waits in the data queue: no instance yet\n" + m.format());
        assertEquals(1, m.node().dataHolds(), m.format());
        assertEquals(0, overlay.delivered(-1));

        overlay.applicationFull(false); // the application drained its queue, without telling the store
        Await.until(() -> overlay.delivered(-1) == 1, 30, () -> "held data taken once there is room\n"
                + store.metrics().format());
        assertEquals(3, store.metrics().node().messages());
    }

    @Test
    void shouldTakeHeldDataOnceTheDeliveryWaitIsOver() throws Exception {
        RecordingOverlay overlay = overlay();
        long wait = TimeUnit.MILLISECONDS.toNanos(50);
        overlay.deliveryWaitNanos(wait);
        overlay.applicationFull(true);
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false), Specs.loader(),
                SpecResolver.defaults());
        store.open(overlay);
        store.install(ACK);
        long start = System.nanoTime();
        store.receiveMessage(Messages.unicastPayload(42, 2, 1, 9, 1, "x"), Arrival.DELIVERED);
        Await.until(() -> store.metrics().node().messages() == 1, 30, () -> store.metrics().format());
        assertTrue(System.nanoTime() - start >= wait, "held for the delivery wait first");
        assertEquals(1, overlay.delivered(-1), "then processed; the delivery itself may wait for room");
    }

    @Test
    void shouldNameAScratchTwinsThreadsApartFromTheStores() throws Exception {
        store = new MessageStore(MessageStoreConfig.defaults().withShards(2).withWarmStart(false), Specs.loader(),
                SpecResolver.defaults());
        store.open(overlay());
        store.install(ACK);
        try (ScratchStore twin = store.scratch()) {
            twin.open(overlay());
            Set<String> names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .collect(Collectors.toSet());
            assertTrue(names.containsAll(List.of("statecast-ms-scratch-shard-0", "statecast-ms-scratch-shard-1",
                    "statecast-ms-scratch-watchdog")), "the twin's threads: " + names);
            assertTrue(names.containsAll(List.of("statecast-ms-shard-0", "statecast-ms-shard-1", "statecast-ms-watchdog")),
                    "the store's own: " + names);
        }
    }

    @Test
    void shouldRunEveryInstanceOnTheOneShardItsKeyHashesTo() throws Exception {
        RecordingOverlay overlay = overlay();
        store = new MessageStore(MessageStoreConfig.defaults().withShards(4).withWarmStart(false), Specs.loader(),
                SpecResolver.defaults());
        store.open(overlay);
        store.install(ACK);
        int ids = 300;
        CountDownLatch go = new CountDownLatch(1);
        Thread[] producers = new Thread[3];
        for (int p = 0; p < producers.length; p++) {
            producers[p] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int id = 1; id <= ids; id++) {
                    store.receiveMessage(Messages.unicastPayload(42, id, 1, 9, 5, "x"), Arrival.DELIVERED);
                }
            });
            producers[p].start();
        }
        go.countDown();
        for (Thread t : producers) {
            t.join();
        }
        Await.until(() -> store.metrics().node().messages() == (long) ids * producers.length, 30,
                () -> store.metrics().format());
        assertEquals(ids, overlay.delivered(-1), "each message delivered once; its duplicates acknowledged only");
        for (long id = 1; id <= ids; id++) {
            int shard = Math.floorMod(Keys.message(42, id).spread(), 4);
            assertEquals(Set.of("statecast-ms-shard-" + shard), overlay.threads(id), "MessageID " + id);
        }
        MessageStoreMetrics m = store.metrics();
        assertEquals(0, m.node().totalDrops(), m.format());
        assertEquals(ids, m.node().liveInstances());
    }

    @Test
    void shouldQuarantineAnOverlongQueryAndMoveItsShardToANewThread() throws Exception {
        RecordingOverlay overlay = overlay();
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withSpecLimits(MessageStoreTest.limitMs(50)),
                Specs.loader(), SpecResolver.defaults());
        store.open(overlay);
        store.loadService(URI.create("classpath:specs/slow-query.scxml"));
        store.install(ACK);
        store.receiveMessage(Messages.payload(77, 1, 1, 5, "first use"), Arrival.DELIVERED);
        Await.until(() -> overlay.delivered(-1) == 1, 30, () -> store.metrics().format());

        store.receiveMessage(Messages.payload(77, 7, 1, 5, "takes a second"), Arrival.DELIVERED);
        store.receiveMessage(Messages.unicastPayload(42, 1, 1, 9, 5, "behind it on the same shard"), Arrival.DELIVERED);
        Await.until(() -> overlay.delivered(42) == 1, 30,
                () -> store.metrics().format());
        // The watchdog counts the abandoned thread after the new thread may already have delivered.
        Await.until(() -> store.metrics().abandonedThreads() >= 1, 30, () -> store.metrics().format());
        MessageStoreMetrics m = store.metrics();
        assertEquals(1, m.quarantines(), m.format());
        assertEquals(1, m.abandonedThreads(), m.format());
        assertNull(store.service(77));
        assertTrue(store.service(42) != null);
        store.receiveMessage(Messages.payload(77, 9, 1, 5, "refused"), Arrival.DELIVERED);
        assertEquals(1, store.metrics().node().drops(DropReason.QUARANTINED));
        Await.until(() -> Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("statecast-ms-shard-0")).count() == 1, 60,
                () -> "the abandoned thread finishes its query and exits");
        store.receiveMessage(Messages.unicastPayload(42, 2, 1, 9, 5, "still served"), Arrival.DELIVERED);
        Await.until(() -> overlay.delivered(42) == 2, 30, () -> store.metrics().format());
    }
}
