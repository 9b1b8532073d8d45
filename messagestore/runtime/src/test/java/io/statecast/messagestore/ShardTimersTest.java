package io.statecast.messagestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.testkit.Await;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.substrate.RealTimerService;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Instances' timers on a dedicated or io shard on the system clock: on the shard's own wheel
 * (and, with a zero tick, through the node's timer service as before). Nothing but the timers
 * drives the shard here: it has to wake up by itself, sooner than the store's sweep (every 10 s),
 * the only other thing that would run an idle shard and fire its overdue timers.
 */
class ShardTimersTest {

    private final RealTimerService timers = new RealTimerService("test-timer");
    private final RecordingOverlay overlay = new RecordingOverlay(Messages.a(9), timers,
            new FixedTopology(Messages.a(9)).tree(Messages.a(1), Messages.a(5)));
    private MessageStore store;
    private ScheduledExecutorService loop;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        timers.close();
        if (loop != null) {
            loop.shutdownNow();
        }
    }

    /** Gives the overlay a receive thread named {@code name}, as a socket's UDP event loop. */
    private void receiveThread(String name) {
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        overlay.receiveExecutor(loop);
    }

    private MessageStore open(Duration tick, MessageStoreConfig.Threading threading) throws Exception {
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false).withTimerTick(tick)
                .withThreading(threading), Specs.loader(), SpecResolver.defaults());
        store.open(overlay);
        // the sender retransmits every 20 ms until acknowledged, and lingers 50 ms once done
        ServiceSpec ack = Specs.load("specs/ack-service.scxml").withParameters(Map.of("Retry", "20", "Linger", "50"));
        store.install(ack);
        return store;
    }

    private long retransmissions() {
        return overlay.drain().stream().filter(c -> c instanceof RecordingOverlay.SendData).count();
    }

    private void shouldRetransmitUntilAcknowledgedThenLingerAndEnd(Duration tick) throws Exception {
        shouldRetransmitUntilAcknowledgedThenLingerAndEnd(tick, MessageStoreConfig.Threading.DEDICATED);
    }

    private void shouldRetransmitUntilAcknowledgedThenLingerAndEnd(Duration tick, MessageStoreConfig.Threading threading)
            throws Exception {
        open(tick, threading);
        // from the local application to node 5: the sender's instance arms its retry timer
        store.receiveMessage(Messages.unicastPayload(42, 7, 9, 5, 9, "x"), Arrival.FROM_APPLICATION);
        long[] sent = {0};
        Await.until(() -> (sent[0] += retransmissions()) >= 3, 8,
                () -> "three retransmissions, each from a timer re-armed in the previous expiry; got " + sent[0]
                        + "\n" + store.metrics().format());
        store.receiveMessage(io.statecast.overlay.message.Origin.attach(Messages.control(42, 2, 7, 5, 9, 5), Messages.a(9)),
                Arrival.DELIVERED); // the ACK, naming this node as the origin
        Await.until(() -> store.metrics().node().liveInstances() == 0, 8,
                () -> "the linger timer ends the instance\n" + store.metrics().format());
        MessageStoreMetrics m = store.metrics();
        assertEquals(1, m.node().finished(), m.format());
        assertTrue(m.node().timerEvents() >= 4, "retries and the linger: " + m.format());
        assertEquals(0, m.node().totalDrops(), m.format());
        assertEquals(0, timers.taskFailures());
    }

    @Test
    void shouldFireTimersOfAnIdleShardFromItsWheel() throws Exception {
        shouldRetransmitUntilAcknowledgedThenLingerAndEnd(MessageStoreConfig.DEFAULT_TIMER_TICK);
    }

    @Test
    void shouldFireTimersThroughTheTimerServiceWithAZeroTick() throws Exception {
        shouldRetransmitUntilAcknowledgedThenLingerAndEnd(Duration.ZERO);
    }

    @Test
    void shouldFireTimersOfAnIdleIoShardFromItsWheelOnTheReceiveThread() throws Exception {
        receiveThread("test-receive-loop");
        shouldRetransmitUntilAcknowledgedThenLingerAndEnd(MessageStoreConfig.DEFAULT_TIMER_TICK, MessageStoreConfig.Threading.IO);
        assertEquals(MessageStoreConfig.Threading.IO, store.threading());
        assertEquals(Set.of("test-receive-loop"), overlay.threads(), "every primitive ran on the receive thread");
    }

    @Test
    void withoutAReceiveThreadAnIoStoreShouldRunAsClockThreading() throws Exception {
        shouldRetransmitUntilAcknowledgedThenLingerAndEnd(MessageStoreConfig.DEFAULT_TIMER_TICK, MessageStoreConfig.Threading.IO);
        assertEquals(MessageStoreConfig.Threading.CLOCK, store.threading(), "no receive thread: as clock threading");
        assertEquals(Set.of("test-timer"), overlay.threads(), "every primitive ran on the timer thread");
    }

    /**
     * A shard that could not run for a while (here: blocked in a primitive, as on a starved
     * machine) finds both an overdue retry timer and the acknowledgement that was queued before
     * the timer was due. The acknowledgement comes first, as it happened: no retransmission.
     */
    @Test
    void shouldTakeAMessageQueuedBeforeATimerWasDueBeforeFiringIt() throws Exception {
        long retryMs = 3_000;
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withThreading(MessageStoreConfig.Threading.DEDICATED), Specs.loader(), SpecResolver.defaults());
        store.open(overlay);
        store.install(Specs.load("specs/ack-service.scxml").withParameters(Map.of("Retry", Long.toString(retryMs), "Linger", "50")));
        long sentAt = System.nanoTime();
        store.receiveMessage(Messages.unicastPayload(42, 7, 9, 5, 9, "x"), Arrival.FROM_APPLICATION);
        Await.until(() -> store.metrics().node().liveInstances() == 1, 8, () -> "the sender's instance\n" + store.metrics().format());
        retransmissions();
        long retryDue = sentAt + TimeUnit.MILLISECONDS.toNanos(retryMs);
        synchronized (overlay) { // the shard blocks in its next primitive: RecordingOverlay records under this lock
            // a payload from node 3: its receiver instance acknowledges it, and blocks the shard there
            store.receiveMessage(Messages.unicastPayload(42, 8, 3, 9, 3, "y"), Arrival.DELIVERED);
            Await.until(() -> store.metrics().dataBacklog() == 0, 8, () -> "the shard took the payload");
            store.receiveMessage(io.statecast.overlay.message.Origin.attach(Messages.control(42, 2, 7, 5, 9, 5), Messages.a(9)),
                    Arrival.DELIVERED); // node 5's ACK of message 7
            long queuedAt = System.nanoTime();
            assertTrue(queuedAt < retryDue, "the ACK was queued " + (queuedAt - retryDue) / 1_000_000
                    + " ms after the retry was due: the machine stalled the test thread for seconds");
            // the retry falls due while the shard is blocked
            Await.until(() -> System.nanoTime() - retryDue > TimeUnit.MILLISECONDS.toNanos(100), 8, () -> "the retry's deadline");
        }
        Await.until(() -> store.metrics().node().liveInstances() == 0, 8, () -> "both instances end\n" + store.metrics().format());
        assertEquals(0, retransmissions(), "the ACK queued before the retry was due ended the instance first");
        assertEquals(2, store.metrics().node().finished(), store.metrics().format());
    }
}
