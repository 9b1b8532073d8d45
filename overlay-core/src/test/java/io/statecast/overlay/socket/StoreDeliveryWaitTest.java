package io.statecast.overlay.socket;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.forward.DropCause;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.testkit.RecordingStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A MessageStore's delivery into a full receive queue waits for room ({@code buffers.deliveryWaitMs})
 * instead of dropping a message its service may already have acknowledged; with the wait off it
 * is dropped and counted at once. Real clock, a socket on 127.0.0.1 that never joins.
 */
class StoreDeliveryWaitTest {

    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);

    private static OverlaySocket socket(RecordingStore store, long waitMs) throws Exception {
        OverlayConfig config = OverlayConfig.parse("""
                overlay:
                  id: wait
                  node: TREE
                  address: 5
                  interfaces: ["udp://127.0.0.1:0"]
                  buffers: { receiveQueueMessages: 2, deliveryWaitMs: %d }
                """.formatted(waitMs));
        return OverlaySocket.builder(config).messageStore(store).build();
    }

    private static OverlayMessage message(OverlaySocket s, String text) {
        return s.createMessage(DeliveryMode.MULTICAST, null, text.getBytes(UTF_8), 7);
    }

    private static String text(OverlayMessage m) {
        assertNotNull(m, "a message was expected");
        return new String(m.payload(), UTF_8);
    }

    @Test
    void shouldHoldTheStoreBackUntilTheApplicationMakesRoom() throws Exception {
        RecordingStore store = new RecordingStore(-1);
        try (OverlaySocket s = socket(store, 60_000)) {
            OverlayContext ctx = store.context();
            assertTrue(ctx.toApplication(message(s, "one")));
            assertTrue(ctx.toApplication(message(s, "two")));
            AtomicReference<Thread> deliverer = new AtomicReference<>();
            CompletableFuture<Boolean> third = CompletableFuture.supplyAsync(() -> {
                deliverer.set(Thread.currentThread());
                return ctx.toApplication(message(s, "three"));
            });
            long start = System.nanoTime();
            while (deliverer.get() == null || deliverer.get().getState() != Thread.State.TIMED_WAITING) {
                assertFalse(third.isDone(), "the third delivery must wait, not return: " + third);
                assertTrue(System.nanoTime() - start < DEADLINE_NANOS, "the delivering thread never waited");
                Thread.onSpinWait();
            }
            assertFalse(third.isDone());

            assertEquals("one", text(s.receive(1, TimeUnit.SECONDS)));
            assertTrue(third.get(20, TimeUnit.SECONDS), "delivered once the application made room");
            assertEquals("two", text(s.receive(1, TimeUnit.SECONDS)));
            assertEquals("three", text(s.receive(1, TimeUnit.SECONDS)));
            assertEquals(0, s.statistics().forwarding().drops(DropCause.APPLICATION_QUEUE_FULL));
            assertEquals(3, s.statistics().forwarding().delivered());
        }
    }

    @Test
    void shouldTellTheStoreWhetherTheApplicationHasRoomAndHowLongADeliveryMayWait() throws Exception {
        RecordingStore store = new RecordingStore(-1);
        try (OverlaySocket s = socket(store, 750)) {
            OverlayContext ctx = store.context();
            assertTrue(ctx.applicationHasRoom());
            assertEquals(TimeUnit.MILLISECONDS.toNanos(750), ctx.deliveryWaitNanos());
            assertTrue(ctx.toApplication(message(s, "one")));
            assertTrue(ctx.applicationHasRoom(), "one of two places taken");
            assertTrue(ctx.toApplication(message(s, "two")));
            assertFalse(ctx.applicationHasRoom(), "the store holds its data messages back now");
            CompletableFuture<Long> onTimerThread = new CompletableFuture<>();
            ctx.timers().execute(() -> onTimerThread.complete(ctx.deliveryWaitNanos()));
            assertEquals(0, onTimerThread.get(20, TimeUnit.SECONDS), "no wait on the timer thread");
            assertEquals("one", text(s.receive(1, TimeUnit.SECONDS)));
            assertTrue(ctx.applicationHasRoom());
        }
    }

    @Test
    void shouldNeverHoldTheTimerThread() throws Exception {
        RecordingStore store = new RecordingStore(-1);
        try (OverlaySocket s = socket(store, 60_000)) {
            OverlayContext ctx = store.context();
            assertTrue(ctx.toApplication(message(s, "one")));
            assertTrue(ctx.toApplication(message(s, "two")));
            // a store on clock threading delivers on the timer thread, which also runs heartbeats
            CompletableFuture<Boolean> onTimerThread = new CompletableFuture<>();
            ctx.timers().execute(() -> onTimerThread.complete(ctx.toApplication(message(s, "three"))));
            assertFalse(onTimerThread.get(20, TimeUnit.SECONDS), "refused at once, not after the 60 s wait");
            assertEquals(1, s.statistics().forwarding().drops(DropCause.APPLICATION_QUEUE_FULL));
        }
    }

    @Test
    void shouldNameTheUdpReceiveThreadAndNeverHoldIt() throws Exception {
        RecordingStore store = new RecordingStore(-1);
        try (OverlaySocket s = socket(store, 60_000)) {
            OverlayContext ctx = store.context();
            ScheduledExecutorService rx = ctx.receiveExecutor();
            assertNotNull(rx, "one UDP interface: one receive thread");
            assertTrue(ctx.toApplication(message(s, "one")));
            assertTrue(ctx.toApplication(message(s, "two")));
            // a store on io threading delivers on the thread that reads the socket
            CompletableFuture<String> onReceiveThread = new CompletableFuture<>();
            rx.execute(() -> onReceiveThread.complete(Thread.currentThread().getName() + " waits "
                    + ctx.deliveryWaitNanos() + " ns, delivered " + ctx.toApplication(message(s, "three"))));
            String what = onReceiveThread.get(20, TimeUnit.SECONDS);
            assertTrue(what.startsWith("statecast-udp") && what.endsWith(" waits 0 ns, delivered false"), what);
            assertEquals(1, s.statistics().forwarding().drops(DropCause.APPLICATION_QUEUE_FULL));
        }
    }

    @Test
    void shouldDropAtOnceWithoutAWait() throws Exception {
        RecordingStore store = new RecordingStore(-1);
        try (OverlaySocket s = socket(store, 0)) {
            OverlayContext ctx = store.context();
            assertTrue(ctx.toApplication(message(s, "one")));
            assertTrue(ctx.toApplication(message(s, "two")));
            assertFalse(ctx.toApplication(message(s, "three")), "a full queue refuses at once");
            assertEquals(1, s.statistics().forwarding().drops(DropCause.APPLICATION_QUEUE_FULL));
            assertEquals("one", text(s.receive(1, TimeUnit.SECONDS)));
            assertEquals("two", text(s.receive(1, TimeUnit.SECONDS)));
            assertNull(s.receive(0, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void shouldGiveUpAfterTheWaitAndCountTheDrop() throws Exception {
        RecordingStore store = new RecordingStore(-1);
        try (OverlaySocket s = socket(store, 1)) {
            OverlayContext ctx = store.context();
            assertTrue(ctx.toApplication(message(s, "one")));
            assertTrue(ctx.toApplication(message(s, "two")));
            assertFalse(ctx.toApplication(message(s, "three")), "nobody takes: refused after 1 ms");
            assertEquals(1, s.statistics().forwarding().drops(DropCause.APPLICATION_QUEUE_FULL));
        }
    }
}
