package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TcpInterfaceTest {

    private static final int MESSAGES = 100_000;

    private final long seed = Seeds.seed();
    private final SplittableRandom random = new SplittableRandom(seed);
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private TcpInterface start(TcpConfig config, ExchangeCounter counter, Set<SubstrateAddress> senders) throws IOException {
        TcpInterface i = new TcpInterface(config);
        toClose.add(i);
        i.start((frame, from) -> {
            counter.record(TestFrames.check(frame));
            if (senders != null) {
                senders.add(from);
            }
            frame.release();
        });
        return i;
    }

    private static TcpConfig fast() {
        return TcpConfig.defaults().withReconnect(Duration.ofMillis(10), Duration.ofMillis(100), 100)
                .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    private void sendPaced(TcpInterface from, SubstrateAddress to, long firstSeq, int count) {
        for (long seq = firstSeq; seq < firstSeq + count; seq++) {
            if (!from.isWritable(to)) {
                assertTrue(Await.until(() -> from.isWritable(to), Duration.ofSeconds(30)), "queue never drained");
            }
            assertTrue(from.send(to, TestFrames.frame(seq, 16 + random.nextInt(497), random)), "send refused, seed " + seed);
        }
    }

    @Test
    void shouldDeliverOneHundredThousandFramesExactlyOnceInOrder() throws IOException {
        ExchangeCounter got = new ExchangeCounter();
        Set<SubstrateAddress> senders = ConcurrentHashMap.newKeySet();
        TcpInterface a = start(fast(), new ExchangeCounter(), null);
        TcpInterface b = start(fast(), got, senders);

        sendPaced(a, b.localAddress(), 0, MESSAGES);

        assertTrue(Await.until(() -> got.received() >= MESSAGES, Duration.ofSeconds(60)), got.toString());
        System.out.printf("TCP loopback: sent=%d %s seed=%d%n", MESSAGES, got, seed);
        assertEquals(MESSAGES, got.distinct());
        assertEquals(MESSAGES, got.received(), "exactly once");
        assertEquals(0, got.outOfOrder(), "in order");
        assertEquals(0, got.corrupt());
        assertEquals(Set.of(a.localAddress()), senders, "frames come from the sender's listening address");
        assertEquals(MESSAGES, a.metrics().framesSent());
        assertEquals(1, a.metrics().count(InterfaceMetrics.ConnectionEvent.CONNECTED));
    }

    @Test
    void shouldSendBackOverTheConnectionThePeerOpened() throws IOException {
        ExchangeCounter atA = new ExchangeCounter();
        ExchangeCounter atB = new ExchangeCounter();
        TcpInterface a = start(fast(), atA, null);
        TcpInterface b = start(fast(), atB, null);

        sendPaced(a, b.localAddress(), 0, 10);
        assertTrue(Await.until(() -> atB.received() == 10, Duration.ofSeconds(10)));
        assertTrue(Await.until(() -> b.isConnected(a.localAddress()), Duration.ofSeconds(10)));
        sendPaced(b, a.localAddress(), 0, 10);
        assertTrue(Await.until(() -> atA.received() == 10, Duration.ofSeconds(10)));

        assertEquals(0, b.metrics().count(InterfaceMetrics.ConnectionEvent.CONNECTED), "b opened no connection");
        assertEquals(0, a.metrics().count(InterfaceMetrics.ConnectionEvent.ACCEPTED), "a accepted none");
        assertEquals(1, a.connectionCount());
    }

    @Test
    void shouldDisconnectAPeerSendingGarbageAndKeepServingOthers() throws IOException {
        ExchangeCounter got = new ExchangeCounter();
        TcpInterface b = start(fast(), got, null);
        TcpInterface a = start(fast(), new ExchangeCounter(), null);
        sendPaced(a, b.localAddress(), 0, 100);

        byte[] garbage = new byte[4096];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) random.nextInt(256);
        }
        try (Socket raw = connect(b)) {
            raw.getOutputStream().write(garbage);
            assertTrue(closedByPeer(raw), "garbage peer still connected, seed " + seed);
        }
        sendPaced(a, b.localAddress(), 100, 100);

        assertTrue(Await.until(() -> got.received() == 200, Duration.ofSeconds(10)), got.toString());
        assertEquals(1, b.metrics().count(InterfaceMetrics.ConnectionEvent.DISCONNECTED_PEER));
        assertEquals(1, b.metrics().dropped(InterfaceMetrics.ReceiveDrop.TOO_LARGE)
                + b.metrics().dropped(InterfaceMetrics.ReceiveDrop.BAD_HELLO), b.metrics().toString());
        assertEquals(0, got.corrupt() + got.outOfOrder() + got.duplicates());
    }

    @Test
    void shouldDisconnectAPeerAnnouncingAnOversizedFrameAfterAValidHello() throws IOException {
        TcpInterface b = start(fast().withMaxFrameBytes(1000), new ExchangeCounter(), null);

        try (Socket raw = connect(b)) {
            OutputStream out = raw.getOutputStream();
            writeFrame(out, hello(SubstrateAddress.tcp("127.0.0.1", 40000)));
            out.write(new byte[] {0, 0, 0x03, (byte) 0xE9}); // 1001 > 1000
            out.flush();
            assertTrue(closedByPeer(raw));
        }

        assertTrue(Await.until(() -> b.metrics().dropped(InterfaceMetrics.ReceiveDrop.TOO_LARGE) == 1, Duration.ofSeconds(10)));
        assertEquals(1, b.metrics().count(InterfaceMetrics.ConnectionEvent.DISCONNECTED_PEER));
    }

    @Test
    void shouldDisconnectAPeerWhoseWellFramedFrameTheReceiverRejects() throws IOException {
        TcpInterface b = new TcpInterface(fast());
        toClose.add(b);
        b.start(new FrameReceiver() {
            @Override
            public void onFrame(ByteBuf frame, SubstrateAddress from) {
                frame.release();
            }

            @Override
            public boolean onFrameChecked(ByteBuf frame, SubstrateAddress from) {
                boolean wellFormed = frame.readableBytes() > 0 && frame.getByte(frame.readerIndex()) == 1;
                frame.release();
                return wellFormed;
            }
        });

        try (Socket raw = connect(b)) {
            OutputStream out = raw.getOutputStream();
            writeFrame(out, hello(SubstrateAddress.tcp("127.0.0.1", 40000)));
            writeFrame(out, io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
            writeFrame(out, io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {7, 7, 7}));
            assertTrue(closedByPeer(raw), "a peer sending undecodable frames must be disconnected, seed " + seed);
        }

        assertTrue(Await.until(() -> b.metrics().dropped(InterfaceMetrics.ReceiveDrop.UNDECODABLE) == 1, Duration.ofSeconds(10)),
                b.metrics().toString());
        assertEquals(1, b.metrics().count(InterfaceMetrics.ConnectionEvent.DISCONNECTED_PEER));
    }

    @Test
    void shouldDisconnectAPeerWhoseHelloIsInvalidOrLate() throws IOException {
        TcpInterface b = start(fast().withTimeouts(Duration.ofSeconds(1), Duration.ofMillis(200)), new ExchangeCounter(), null);

        try (Socket raw = connect(b)) {
            ByteBuf bad = hello(SubstrateAddress.tcp("127.0.0.1", 40000));
            bad.setByte(0, 'X');
            writeFrame(raw.getOutputStream(), bad);
            assertTrue(closedByPeer(raw));
        }
        try (Socket silent = connect(b)) {
            assertTrue(closedByPeer(silent));
        }
        try (Socket nameHello = connect(b)) {
            writeFrame(nameHello.getOutputStream(), hello(SubstrateAddress.tcp("localhost", 40000)));
            assertTrue(closedByPeer(nameHello), "a host name in the hello would need a lookup on the I/O thread");
        }

        assertTrue(Await.until(() -> b.metrics().dropped(InterfaceMetrics.ReceiveDrop.HELLO_TIMEOUT) == 1, Duration.ofSeconds(10)));
        assertEquals(2, b.metrics().dropped(InterfaceMetrics.ReceiveDrop.BAD_HELLO));
        assertEquals(3, b.metrics().count(InterfaceMetrics.ConnectionEvent.DISCONNECTED_PEER));
    }

    @Test
    void shouldRefuseInboundConnectionsBeyondTheLimit() throws IOException {
        TcpInterface b = start(fast().withLimits(16, 1), new ExchangeCounter(), null);

        try (Socket first = connect(b); Socket second = connect(b)) {
            assertTrue(closedByPeer(second));
            assertTrue(Await.until(() -> b.metrics().count(InterfaceMetrics.ConnectionEvent.REFUSED_LIMIT) == 1, Duration.ofSeconds(10)));
            assertFalse(first.isClosed());
        }
    }

    @Test
    void shouldReconnectAfterThePeerRestarts() throws IOException {
        ExchangeCounter first = new ExchangeCounter();
        TcpInterface a = start(fast(), new ExchangeCounter(), null);
        TcpInterface b = start(fast(), first, null);
        SubstrateAddress bAddress = b.localAddress();
        sendPaced(a, bAddress, 0, 10);
        assertTrue(Await.until(() -> first.received() == 10, Duration.ofSeconds(10)));

        b.close();
        assertTrue(Await.until(() -> !a.isConnected(bAddress), Duration.ofSeconds(10)), "a did not notice the close");
        sendPaced(a, bAddress, 10, 20); // queued: nobody listens, a retries with backoff
        assertTrue(Await.until(() -> a.metrics().count(InterfaceMetrics.ConnectionEvent.CONNECT_FAILED) >= 1, Duration.ofSeconds(10)));
        ExchangeCounter second = new ExchangeCounter();
        start(fast().withAddress("127.0.0.1", bAddress.port()), second, null);

        assertTrue(Await.until(() -> second.received() == 20, Duration.ofSeconds(20)), second.toString());
        assertEquals(0, second.outOfOrder() + second.duplicates() + second.corrupt());
        assertEquals(2, a.metrics().count(InterfaceMetrics.ConnectionEvent.CONNECTED));
        sendPaced(a, bAddress, 30, 10);
        assertTrue(Await.until(() -> second.received() == 30, Duration.ofSeconds(10)));
    }

    @Test
    void shouldCountQueueOverflowAndDropTheQueueAfterTheLastConnectAttempt() throws IOException {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = s.getLocalPort(); // closed at once: nothing listens there during the test
        }
        SubstrateAddress dead = SubstrateAddress.tcp("127.0.0.1", deadPort);
        TcpInterface a = start(fast().withQueue(10, 1 << 20).withReconnect(Duration.ofMillis(300), Duration.ofMillis(300), 2),
                new ExchangeCounter(), null);

        int accepted = 0;
        for (int i = 0; i < 25; i++) {
            if (a.send(dead, TestFrames.frame(i, 64, random))) {
                accepted++;
            }
        }

        assertEquals(10, accepted);
        assertEquals(15, a.metrics().dropped(InterfaceMetrics.SendDrop.QUEUE_FULL));
        assertTrue(Await.until(() -> a.metrics().dropped(InterfaceMetrics.SendDrop.CONNECT_FAILED) == 10, Duration.ofSeconds(10)),
                a.metrics().toString());
        assertEquals(2, a.metrics().count(InterfaceMetrics.ConnectionEvent.CONNECT_FAILED));
        assertEquals(0, a.queuedFrames(dead));
        assertEquals(0, a.peerCount());
    }

    @Test
    void shouldRefuseOversizedFramesOtherSchemesAndSendsAfterClose() throws IOException {
        TcpInterface a = start(fast().withMaxFrameBytes(100), new ExchangeCounter(), null);
        SubstrateAddress self = a.localAddress();

        assertFalse(a.send(self, Unpooled.buffer(101).writerIndex(101)));
        assertFalse(a.send(SubstrateAddress.udp("127.0.0.1", 9), Unpooled.buffer(1).writeByte(1)));
        a.close();
        assertFalse(a.send(self, Unpooled.buffer(1).writeByte(1)));

        assertEquals(1, a.metrics().dropped(InterfaceMetrics.SendDrop.TOO_LARGE));
        assertEquals(1, a.metrics().dropped(InterfaceMetrics.SendDrop.WRONG_SCHEME));
        assertEquals(1, a.metrics().dropped(InterfaceMetrics.SendDrop.CLOSED));
    }

    private static Socket connect(TcpInterface to) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), to.localAddress().port());
        s.setSoTimeout(10_000);
        return s;
    }

    private static ByteBuf hello(SubstrateAddress listening) {
        return TcpHello.encode(ByteBufAllocator.DEFAULT, listening);
    }

    private static void writeFrame(OutputStream out, ByteBuf body) throws IOException {
        byte[] b = new byte[body.readableBytes()];
        body.readBytes(b);
        body.release();
        out.write(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16), (byte) (b.length >>> 8), (byte) b.length});
        out.write(b);
        out.flush();
    }

    /** Whether the other side closes the connection within the socket's read timeout. */
    private static boolean closedByPeer(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset
        }
    }
}
