package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Await;
import io.statecast.messagestore.support.Messages;
import io.statecast.messagestore.support.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.messagestore.support.StaticTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.substrate.RealTimerService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store with io threading: its shards run on the thread that receives the node's frames, and
 * their timers fire there while the shard is idle.
 */
class MessageStoreIoThreadingTest {

    private static final ServiceSpec ACK = Specs.load("specs/ack-service.scxml");
    private static final String RECEIVE_THREAD = "test-receive-loop";

    private final RealTimerService timers = new RealTimerService("test-timers");
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), timers, new StaticTopology(a(9)).tree(a(1), a(5)));
    private final List<RecordingOverlay.Call> calls = new ArrayList<>();
    private ScheduledExecutorService loop;
    private MessageStore store;

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

    private void open(boolean withLoop) throws Exception {
        if (withLoop) {
            loop = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, RECEIVE_THREAD);
                t.setDaemon(true);
                return t;
            });
            overlay.receiveExecutor(loop);
        }
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withThreading(MessageStoreConfig.Threading.IO), Specs.loader(), SpecResolver.defaults());
        store.open(overlay);
        store.install(ACK);
    }

    /** How many of the calls so far are of {@code type}. */
    private long count(Class<? extends RecordingOverlay.Call> type) {
        calls.addAll(overlay.drain());
        return calls.stream().filter(type::isInstance).count();
    }

    @Test
    void shouldRunOnTheReceiveThreadAndFireTimersThereWhileIdle() throws Exception {
        open(true);
        assertEquals(MessageStoreConfig.Threading.IO, store.threading());
        // this node's own message waits for an ACK that does not come: its Retry timer (200 ms)
        // must fire again and again with nothing else arriving to run the shard. The deadline is
        // generous, but shorter than the store's sweep (every 10 s), the only other thing that
        // would run an idle shard and fire its overdue timers
        store.receiveMessage(Messages.unicastPayload(42, 1, 9, 5, 9, "mine"), Arrival.DELIVERED);
        Await.until(() -> count(RecordingOverlay.SendData.class) >= 3, 8,
                () -> "retransmissions: " + calls + "\n" + store.metrics().format());
        // the ACK ends the wait; Linger (1 s) then ends the instance, again on a timer alone
        store.receiveMessage(Messages.control(42, 2, 1, 5, 9, 5), Arrival.DELIVERED);
        // a message from node 1 for this node: acknowledged and delivered
        store.receiveMessage(Messages.unicastPayload(42, 2, 1, 9, 1, "yours"), Arrival.DELIVERED);
        Await.until(() -> count(RecordingOverlay.ToApplication.class) == 1 && count(RecordingOverlay.SendControl.class) == 1,
                30, () -> calls + "\n" + store.metrics().format());
        Await.until(() -> store.metrics().node().liveInstances() == 0, 8, () -> "instances left after Linger (1 s)\n"
                + store.metrics().format());
        assertEquals(Set.of(RECEIVE_THREAD), overlay.threads(), "every primitive ran on the receive thread");
    }

    @Test
    void withoutAReceiveThreadShouldRunOnTheTimerServiceAsClockThreadingDoes() throws Exception {
        open(false);
        assertEquals(MessageStoreConfig.Threading.CLOCK, store.threading(), "no receive thread: as clock threading");
        store.receiveMessage(Messages.unicastPayload(42, 2, 1, 9, 1, "yours"), Arrival.DELIVERED);
        Await.until(() -> count(RecordingOverlay.ToApplication.class) == 1 && count(RecordingOverlay.SendControl.class) == 1,
                30, () -> calls + "\n" + store.metrics().format());
        Await.until(() -> store.metrics().node().liveInstances() == 0, 30, () -> "instances left after Linger\n"
                + store.metrics().format());
        assertEquals(Set.of("test-timers"), overlay.threads(), "every primitive ran on the timer thread");
    }
}
