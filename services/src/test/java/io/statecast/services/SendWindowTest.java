package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.socket.SendWindowException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The socket's send window with h2h-ack (ServiceID 1, {@code <InFlight>init waitack</InFlight>})
 * over real UDP on 127.0.0.1: two TREE nodes, 1 sends to 2. Ports are ephemeral unless
 * {@code -Dstatecast.test.udpPortBase=N} asks for N, N+1, … (for machines where the test must stay
 * inside a port range).
 */
class SendWindowTest {

    private static final int H2H = 1;
    private static final int PORT_BASE = Integer.getInteger("statecast.test.udpPortBase", 0);
    private static int nextPort;

    private final List<OverlaySocket> sockets = new ArrayList<>();

    @AfterEach
    void close() {
        sockets.forEach(OverlaySocket::close);
    }

    private static String port() {
        return PORT_BASE == 0 ? "0" : Integer.toString(PORT_BASE + nextPort++ % 20);
    }

    private static OverlayConfig config(long id, OverlayConfig.SendWindow window, String buddy) throws Exception {
        return OverlayConfig.parse("overlay:\n"
                + "  id: send-window-test\n"
                + "  node: TREE\n"
                + "  address: \"" + id + "\"\n"
                + "  interfaces: [ \"udp://127.0.0.1:" + port() + "\" ]\n"
                + (buddy == null ? "" : "  buddies: [ \"" + buddy + "\" ]\n")
                + "  heartbeat: { fastMs: 50, slowMs: 50, timeoutMs: 5000 }\n"
                + "  buffers: { receiveQueueMessages: 65536 }\n")
                .withSendWindow(window);
    }

    private static MessageStore h2hStore() throws Exception {
        return h2hStore(MessageStoreConfig.Threading.DEDICATED);
    }

    private static MessageStore h2hStore(MessageStoreConfig.Threading threading) throws Exception {
        MessageStore s = new MessageStore(MessageStoreConfig.defaults().withWarmStart(false).withThreading(threading));
        s.loadService(URI.create("classpath:services/h2h-ack.scxml"));
        return s;
    }

    /** Node 1 (the sender, with an h2h-ack store) and node 2 (with one if {@code receiverAcks}), joined. */
    private OverlaySocket[] pair(OverlayConfig.SendWindow window, boolean receiverAcks) throws Exception {
        return pair(window, receiverAcks, MessageStoreConfig.Threading.DEDICATED);
    }

    /** As {@link #pair(OverlayConfig.SendWindow, boolean)}, the stores with {@code threading}. */
    private OverlaySocket[] pair(OverlayConfig.SendWindow window, boolean receiverAcks, MessageStoreConfig.Threading threading)
            throws Exception {
        OverlaySocket a = OverlaySocket.builder(config(1, window, null)).messageStore(h2hStore(threading)).build();
        sockets.add(a);
        OverlaySocket.Builder bb = OverlaySocket.builder(config(2, OverlayConfig.SendWindow.defaults(),
                a.substrateAddresses().get(0).toString()));
        if (receiverAcks) {
            bb.messageStore(h2hStore(threading));
        }
        OverlaySocket b = bb.build();
        sockets.add(b);
        a.join();
        b.join();
        await(() -> a.state() == NodeState.STABLE && b.state() == NodeState.STABLE
                && a.topology().isNeighbour(b.localAddress()), 30, () -> "the pair did not stabilise: " + a + " " + b);
        return new OverlaySocket[] {a, b};
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

    private static byte[] payload(int seq, int size) {
        return ByteBuffer.allocate(size).putInt(seq).array();
    }

    @Test
    void shouldTimeOutWithTheDocumentedExceptionWhenNothingIsAcknowledged() throws Exception {
        OverlaySocket[] p = pair(new OverlayConfig.SendWindow(8, 300), false);
        OverlaySocket a = p[0];
        MessageStore store = (MessageStore) a.messageStore();
        for (int i = 0; i < 8; i++) {
            a.sendTo(p[1].localAddress(), payload(i, 64), H2H);
        }
        SendWindowException e = assertThrows(SendWindowException.class,
                () -> a.sendTo(p[1].localAddress(), payload(8, 64), H2H));
        assertEquals(H2H, e.serviceId());
        assertEquals(8, e.window());
        assertEquals(8, e.inFlight(), e.getMessage());
        assertTrue(e.waitedMs() >= 300, e.getMessage());
        assertTrue(e.getMessage().contains("ServiceID 1") && e.getMessage().contains("8 own messages in flight")
                && e.getMessage().contains("window 8"), e.getMessage());
        assertEquals(8, store.sendWindow().inFlight(H2H), "the refused message was not sent");
        assertEquals(1, a.sendWindowStatistics().failures());
        // a message without a ServiceID is not windowed
        a.sendTo(p[1].localAddress(), payload(9, 64));
    }

    @Test
    void shouldNotLetConcurrentSendersTogetherPassTheWindow() throws Exception {
        OverlaySocket[] p = pair(new OverlayConfig.SendWindow(8, 300), false);
        OverlaySocket a = p[0];
        MessageStore store = (MessageStore) a.messageStore();
        int threads = 8;
        int each = 4;
        CyclicBarrier start = new CyclicBarrier(threads);
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t * each;
            Thread th = new Thread(() -> {
                try {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < each; i++) {
                        try {
                            a.sendTo(p[1].localAddress(), payload(first + i, 64), H2H);
                            sent.incrementAndGet();
                        } catch (SendWindowException e) {
                            refused.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            senders.add(th);
            th.start();
        }
        for (Thread th : senders) {
            th.join(30_000);
        }
        assertEquals(threads * each, sent.get() + refused.get(), "every send returned or was refused");
        assertEquals(8, sent.get(), "nothing is acknowledged: exactly the window's 8 went out");
        assertEquals(8, store.sendWindow().inFlight(H2H));
    }

    @Test
    void shouldEndAWaitOnInterrupt() throws Exception {
        OverlaySocket[] p = pair(new OverlayConfig.SendWindow(2, 60_000), false);
        OverlaySocket a = p[0];
        a.sendTo(p[1].localAddress(), payload(0, 64), H2H);
        a.sendTo(p[1].localAddress(), payload(1, 64), H2H);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                a.sendTo(p[1].localAddress(), payload(2, 64), H2H);
            } catch (RuntimeException e) {
                thrown.set(e);
                flag.set(Thread.currentThread().isInterrupted());
            }
        });
        t.start();
        await(() -> a.sendWindowStatistics().waits() == 1, 10, () -> "the sender never waited");
        t.interrupt();
        t.join(10_000);
        SendWindowException e = (SendWindowException) thrown.get();
        assertTrue(e != null && e.interrupted(), String.valueOf(e));
        assertEquals(Boolean.TRUE, flag.get(), "the interrupt flag is set again");
    }

    @Test
    void shouldDeliverEverythingWhileTheWindowStaysSmall() throws Exception {
        OverlaySocket[] p = pair(new OverlayConfig.SendWindow(8, 30_000), true);
        OverlaySocket a = p[0];
        OverlaySocket b = p[1];
        MessageStore store = (MessageStore) a.messageStore();
        int n = 500;
        AtomicIntegerArray got = new AtomicIntegerArray(n);
        b.onMessage(m -> got.incrementAndGet(ByteBuffer.wrap(m.payload()).getInt()));
        int most = 0;
        for (int i = 0; i < n; i++) {
            a.sendTo(b.localAddress(), payload(i, 256), H2H);
            most = Math.max(most, store.sendWindow().inFlight(H2H));
        }
        assertTrue(most <= 8, "in flight never above the window: " + most);
        await(() -> count(got) == n, 60, () -> count(got) + " of " + n + " delivered\n" + store.metrics().format());
        assertEquals(0, duplicates(got), "exactly once");
        await(() -> store.sendWindow().inFlight(H2H) == 0, 30, () -> "still in flight: " + store.sendWindow().inFlight(H2H));
    }

    /** With io threading each store runs on its socket's UDP event loop; the outcome is the same. */
    @ParameterizedTest
    @EnumSource(value = MessageStoreConfig.Threading.class, names = {"DEDICATED", "IO"})
    void shouldDeliverABurstFarAboveTheQueuesExactlyOnce(MessageStoreConfig.Threading threading) throws Exception {
        OverlaySocket[] p = pair(OverlayConfig.SendWindow.defaults(), true, threading);
        OverlaySocket a = p[0];
        OverlaySocket b = p[1];
        assertEquals(threading, ((MessageStore) a.messageStore()).threading());
        assertEquals(threading, ((MessageStore) b.messageStore()).threading());
        int n = 20_000;
        AtomicIntegerArray got = new AtomicIntegerArray(n);
        AtomicLong received = new AtomicLong();
        b.onMessage(m -> {
            got.incrementAndGet(ByteBuffer.wrap(m.payload()).getInt());
            received.incrementAndGet();
        });
        for (int i = 0; i < n; i++) {
            a.sendTo(b.localAddress(), payload(i, 1024), H2H);
        }
        MessageStore sa = (MessageStore) a.messageStore();
        MessageStore sb = (MessageStore) b.messageStore();
        await(() -> received.get() >= n, 60, () -> received.get() + " of " + n + " delivered\nsender "
                + sa.metrics().format() + "\nreceiver " + sb.metrics().format());
        assertEquals(n, count(got), "every message arrived");
        assertEquals(0, duplicates(got), "none twice");
        await(() -> sa.sendWindow().inFlight(H2H) == 0, 30, () -> "still in flight: " + sa.sendWindow().inFlight(H2H));
        MessageStoreMetrics m = sa.metrics();
        assertEquals(0, m.service(H2H).counters().terminated(), "no message given up\n" + m.format());
    }

    private static int count(AtomicIntegerArray got) {
        int c = 0;
        for (int i = 0; i < got.length(); i++) {
            c += got.get(i) > 0 ? 1 : 0;
        }
        return c;
    }

    private static int duplicates(AtomicIntegerArray got) {
        int c = 0;
        for (int i = 0; i < got.length(); i++) {
            c += Math.max(0, got.get(i) - 1);
        }
        return c;
    }
}
