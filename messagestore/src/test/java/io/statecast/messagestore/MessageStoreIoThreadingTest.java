package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Await;
import io.statecast.messagestore.support.Messages;
import io.statecast.messagestore.support.Specs;
import io.statecast.messagestore.support.StaticTopology;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.TimerService;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store with io threading: its shards run on the thread that receives the node's frames, and
 * their timers fire there while the shard is idle.
 */
class MessageStoreIoThreadingTest {

    private static final ServiceSpec ACK = Specs.load("specs/ack-service.scxml");
    private static final String RECEIVE_THREAD = "test-receive-loop";

    /** An overlay whose frames arrive on one receive thread; records the threads that act. */
    private static final class LoopOverlay implements OverlayContext {
        final RealTimerService timers = new RealTimerService("test-timers");
        final ScheduledExecutorService loop;
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final AtomicInteger dataSends = new AtomicInteger();
        final AtomicInteger controlSends = new AtomicInteger();
        final AtomicInteger delivered = new AtomicInteger();
        final Topology topology = new StaticTopology(a(9)).tree(a(1), a(5));

        LoopOverlay(boolean withLoop) {
            this.loop = withLoop ? Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, RECEIVE_THREAD);
                t.setDaemon(true);
                return t;
            }) : null;
        }

        @Override
        public ScheduledExecutorService receiveExecutor() {
            return loop;
        }

        @Override
        public LogicalAddress localAddress() {
            return a(9);
        }

        @Override
        public Topology topology() {
            return topology;
        }

        @Override
        public TimerService timers() {
            return timers;
        }

        @Override
        public long newMessageId() {
            return 0;
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, byte[] payload, Route route) {
            threads.add(Thread.currentThread().getName());
            dataSends.incrementAndGet();
            return 1;
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
            threads.add(Thread.currentThread().getName());
            controlSends.incrementAndGet();
            return 1;
        }

        @Override
        public int forwardMessage(OverlayMessage message) {
            return 1;
        }

        @Override
        public boolean toApplication(OverlayMessage message) {
            threads.add(Thread.currentThread().getName());
            delivered.incrementAndGet();
            return true;
        }

        void close() {
            timers.close();
            if (loop != null) {
                loop.shutdownNow();
            }
        }
    }

    private MessageStore store;
    private LoopOverlay overlay;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        if (overlay != null) {
            overlay.close();
        }
    }

    private void open(boolean withLoop) throws Exception {
        overlay = new LoopOverlay(withLoop);
        store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withThreading(MessageStoreConfig.Threading.IO), Specs.loader(), SpecResolver.defaults());
        store.open(overlay);
        store.install(ACK);
    }

    @Test
    void shouldRunOnTheReceiveThreadAndFireTimersThereWhileIdle() throws Exception {
        open(true);
        assertEquals(MessageStoreConfig.Threading.IO, store.threading());
        // this node's own message waits for an ACK that does not come: its Retry timer (200 ms)
        // must fire again and again with nothing else arriving to run the shard
        store.receiveMessage(Messages.unicastPayload(42, 1, 9, 5, 9, "mine"), Arrival.DELIVERED);
        Await.until(() -> overlay.dataSends.get() >= 3, 30, () -> "retransmissions: " + overlay.dataSends.get()
                + "\n" + store.metrics().format());
        // the ACK ends the wait; Linger (1 s) then ends the instance, again on a timer alone
        store.receiveMessage(Messages.control(42, 2, 1, 5, 9, 5), Arrival.DELIVERED);
        // a message from node 1 for this node: acknowledged and delivered
        store.receiveMessage(Messages.unicastPayload(42, 2, 1, 9, 1, "yours"), Arrival.DELIVERED);
        Await.until(() -> overlay.delivered.get() == 1 && overlay.controlSends.get() == 1, 30, () -> store.metrics().format());
        Await.until(() -> store.metrics().node().liveInstances() == 0, 30, () -> "instances left after Linger\n"
                + store.metrics().format());
        assertEquals(Set.of(RECEIVE_THREAD), overlay.threads, "every primitive ran on the receive thread");
    }

    @Test
    void withoutAReceiveThreadShouldRunOnTheTimerServiceAsClockThreadingDoes() throws Exception {
        open(false);
        assertEquals(MessageStoreConfig.Threading.CLOCK, store.threading(), "no receive thread: as clock threading");
        store.receiveMessage(Messages.unicastPayload(42, 2, 1, 9, 1, "yours"), Arrival.DELIVERED);
        Await.until(() -> overlay.delivered.get() == 1 && overlay.controlSends.get() == 1, 30, () -> store.metrics().format());
        Await.until(() -> store.metrics().node().liveInstances() == 0, 30, () -> "instances left after Linger\n"
                + store.metrics().format());
        assertEquals(Set.of("test-timers"), overlay.threads, "every primitive ran on the timer thread");
    }
}
