package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * h2h-ack over real UDP on 127.0.0.1 with both MessageStores on io threading (configured in the
 * socket's YAML): the shards run on each socket's UDP event loop, and a burst far above the
 * send window arrives exactly once and is acknowledged.
 */
class IoThreadingOverUdpTest {

    private static final int H2H = 1;

    private final List<OverlaySocket> sockets = new ArrayList<>();

    @AfterEach
    void close() {
        sockets.forEach(OverlaySocket::close);
    }

    private static OverlayConfig config(long id, String buddy) throws Exception {
        return OverlayConfig.parse("overlay:\n"
                + "  id: io-threading-test\n"
                + "  node: TREE\n"
                + "  address: \"" + id + "\"\n"
                + "  interfaces: [ \"udp://127.0.0.1:0\" ]\n"
                + (buddy == null ? "" : "  buddies: [ \"" + buddy + "\" ]\n")
                + "  heartbeat: { fastMs: 50, slowMs: 50, timeoutMs: 5000 }\n"
                + "  buffers: { receiveQueueMessages: 65536 }\n"
                + "  messageStore:\n"
                + "    threading: io\n"
                + "    shards: 1\n"
                + "    warmStart: false\n"
                + "    services: [ \"classpath:services/h2h-ack.scxml\" ]\n");
    }

    private static void await(BooleanSupplier condition, int seconds, Supplier<String> message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(message.get());
            }
            Thread.sleep(5); // polling a condition with a deadline, not sleep-and-hope
        }
    }

    @Test
    void aBurstShouldArriveExactlyOnceWithTheStoresOnTheUdpThreads() throws Exception {
        OverlaySocket a = OverlaySocket.builder(config(1, null)).build();
        sockets.add(a);
        OverlaySocket b = OverlaySocket.builder(config(2, a.substrateAddresses().get(0).toString())).build();
        sockets.add(b);
        a.join();
        b.join();
        await(() -> a.state() == NodeState.STABLE && b.state() == NodeState.STABLE && a.topology().isNeighbour(b.localAddress()),
                30, () -> "the pair did not stabilise: " + a + " " + b);
        MessageStore sa = (MessageStore) a.messageStore();
        MessageStore sb = (MessageStore) b.messageStore();
        assertEquals(MessageStoreConfig.Threading.IO, sa.threading());
        assertEquals(MessageStoreConfig.Threading.IO, sb.threading());

        int n = 20_000;
        AtomicIntegerArray got = new AtomicIntegerArray(n);
        AtomicLong received = new AtomicLong();
        b.onMessage(m -> {
            got.incrementAndGet(ByteBuffer.wrap(m.payload()).getInt());
            received.incrementAndGet();
        });
        for (int i = 0; i < n; i++) {
            a.sendTo(b.localAddress(), ByteBuffer.allocate(1024).putInt(i).array(), H2H);
        }
        await(() -> received.get() >= n, 60, () -> received.get() + " of " + n + " delivered\nsender "
                + sa.metrics().format() + "\nreceiver " + sb.metrics().format());
        int once = 0;
        int twice = 0;
        for (int i = 0; i < n; i++) {
            once += got.get(i) > 0 ? 1 : 0;
            twice += Math.max(0, got.get(i) - 1);
        }
        assertEquals(n, once, "every message arrived");
        assertEquals(0, twice, "none twice");
        // every message was acknowledged: the sender's instances left their in-flight states
        await(() -> sa.inFlight(H2H) == 0, 30, () -> "still in flight: " + sa.inFlight(H2H));
        assertEquals(0, sa.metrics().service(H2H).counters().terminated(), "no message given up\n" + sa.metrics().format());
        assertTrue(sb.metrics().service(H2H).counters().liveInstances() > 0,
                "the receiver's instances linger for TimeoutMsg: " + sb.metrics().format());
    }
}
