package io.statecast.messagestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Await;
import io.statecast.messagestore.support.Messages;
import io.statecast.messagestore.support.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.messagestore.support.StaticTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.substrate.RealTimerService;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Instances' timers on a dedicated shard on the system clock: on the shard's own wheel (and, with
 * a zero tick, through the node's timer service as before). Nothing but the timers drives the
 * shard here: it has to wake up by itself.
 */
class ShardTimersTest {

    private final RealTimerService timers = new RealTimerService("test-timer");
    private final RecordingOverlay overlay = new RecordingOverlay(Messages.a(9), timers,
            new StaticTopology(Messages.a(9)).tree(Messages.a(1), Messages.a(5)));
    private MessageStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        timers.close();
    }

    private MessageStore open(Duration tick) throws Exception {
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false).withTimerTick(tick),
                Specs.loader(), SpecResolver.defaults());
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
        open(tick);
        // from the local application to node 5: the sender's instance arms its retry timer
        store.receiveMessage(Messages.unicastPayload(42, 7, 9, 5, 9, "x"), Arrival.FROM_APPLICATION);
        long[] sent = {0};
        Await.until(() -> (sent[0] += retransmissions()) >= 3, 30,
                () -> "three retransmissions, each from a timer re-armed in the previous expiry; got " + sent[0]
                        + "\n" + store.metrics().format());
        store.receiveMessage(Messages.control(42, 2, 7, 5, 9, 5), Arrival.DELIVERED); // the ACK
        Await.until(() -> store.metrics().node().liveInstances() == 0, 30,
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
}
