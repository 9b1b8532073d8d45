package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.AddressRepository;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two adapters exchanging messages end to end (encode, substrate, decode, dispatch) with the real
 * {@link MessageCodec}.
 */
class AdapterExchangeTest {

    private static final int MESSAGES = 100_000;
    private static final int WINDOW = 256;
    private static final int OVERLAY_HASH = 0x5eed_cafe;

    /** The adapters run the real codec; kept as a parameter so a second codec can be compared. */
    enum Codec {
        REAL;

        Adapter adapter(TimerService timers, SubstrateInterface i) {
            return new Adapter(new MessageCodec(OVERLAY_HASH, MessageCodec.DEFAULT_MAX_MESSAGE_BYTES), timers, List.of(i));
        }
    }

    private final long seed = Seeds.seed();
    private final SplittableRandom random = new SplittableRandom(seed);
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final RealTimerService timers = new RealTimerService();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        timers.close();
    }

    /** Checks every application payload; counts protocol messages. */
    private static final class Receiver implements AdapterListener {
        final ExchangeCounter counter = new ExchangeCounter();
        final AtomicLong protocol = new AtomicLong();

        @Override
        public void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
            protocol.incrementAndGet();
        }

        @Override
        public void onApplicationMessage(OverlayMessage message, SubstrateAddress from) {
            byte[] p = message.payload();
            counter.record(p == null ? -1 : TestFrames.check(p));
        }
    }

    private Adapter start(Codec codec, SubstrateInterface i, AdapterListener listener) throws IOException {
        Adapter a = codec.adapter(timers, i);
        toClose.add(a);
        a.start(listener);
        return a;
    }

    private OverlayMessage message(long seq, int size) {
        return new OverlayMessage(DeliveryMode.UNICAST, 16, new TreeAddress(1), new TreeAddress(2), new TreeAddress(1),
                null, List.of(new PayloadExtension(TestFrames.payload(seq, size, random))));
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void shouldExchangeOneHundredThousandMessagesOverUdp(Codec codec) throws IOException {
        Receiver rb = new Receiver();
        Adapter a = start(codec, new UdpInterface(UdpConfig.defaults()), new Receiver());
        Adapter b = start(codec, new UdpInterface(UdpConfig.defaults()), rb);
        SubstrateAddress to = b.localAddresses().get(0);
        ExchangeCounter got = rb.counter;

        for (int seq = 0; seq < MESSAGES; seq++) {
            long s = seq;
            if (seq - got.highest() > WINDOW) {
                Await.until(() -> s - got.highest() <= WINDOW, Duration.ofMillis(200));
            }
            if (!a.isWritable(to)) {
                assertTrue(Await.until(() -> a.isWritable(to), Duration.ofSeconds(10)));
            }
            assertTrue(a.send(to, message(seq, 16 + random.nextInt(497))), () -> a.metrics().toString());
        }
        Await.untilOrQuiet(() -> got.distinct() == MESSAGES, got::received, Duration.ofMillis(500), Duration.ofSeconds(30));

        long lost = MESSAGES - got.distinct();
        System.out.printf("adapter UDP (%s codec): sent=%d %s lost=%d (%.3f%%) seed=%d%n",
                codec, MESSAGES, got, lost, 100.0 * lost / MESSAGES, seed);
        assertEquals(0, got.corrupt(), "seed " + seed);
        assertEquals(0, got.duplicates());
        assertTrue(lost <= MESSAGES / 100, "lost " + lost);
        assertEquals(MESSAGES, a.metrics().sent());
        assertEquals(got.received(), b.metrics().applicationReceived());
        assertEquals(0, b.metrics().receiveDropsTotal(), b.metrics().toString());
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void shouldExchangeOneHundredThousandMessagesOverTcpExactlyOnceInOrder(Codec codec) throws IOException {
        Receiver rb = new Receiver();
        Adapter a = start(codec, new TcpInterface(TcpConfig.defaults()), new Receiver());
        Adapter b = start(codec, new TcpInterface(TcpConfig.defaults()), rb);
        SubstrateAddress to = b.localAddresses().get(0);

        for (int seq = 0; seq < MESSAGES; seq++) {
            if (!a.isWritable(to)) {
                assertTrue(Await.until(() -> a.isWritable(to), Duration.ofSeconds(30)));
            }
            assertTrue(a.send(to, message(seq, 16 + random.nextInt(497))), () -> a.metrics().toString());
        }
        a.send(to, new ProtocolMessage(3, new byte[] {1}));
        assertTrue(Await.until(() -> rb.protocol.get() == 1, Duration.ofSeconds(60)), rb.counter.toString());

        System.out.printf("adapter TCP (%s codec): sent=%d %s seed=%d%n", codec, MESSAGES, rb.counter, seed);
        assertEquals(MESSAGES, rb.counter.received());
        assertEquals(MESSAGES, rb.counter.distinct());
        assertEquals(0, rb.counter.outOfOrder() + rb.counter.corrupt() + rb.counter.duplicates());
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void shouldDisconnectATcpPeerWhoseFramesDoNotDecode(Codec codec) throws IOException {
        TcpInterface tcp = new TcpInterface(TcpConfig.defaults());
        Adapter b = start(codec, tcp, new Receiver());
        byte[] junk = new byte[64];
        random.nextBytes(junk);
        junk[0] = 0; // never the magic byte, so decoding must fail

        try (java.net.Socket raw = new java.net.Socket(InetAddress.getLoopbackAddress(), tcp.localAddress().port())) {
            raw.setSoTimeout(10_000);
            java.io.OutputStream out = raw.getOutputStream();
            io.netty.buffer.ByteBuf hello = TcpHello.encode(io.netty.buffer.ByteBufAllocator.DEFAULT, SubstrateAddress.tcp("127.0.0.1", 40000));
            byte[] h = new byte[hello.readableBytes()];
            hello.readBytes(h);
            hello.release();
            for (byte[] frame : new byte[][] {h, junk}) {
                out.write(new byte[] {(byte) (frame.length >>> 24), (byte) (frame.length >>> 16), (byte) (frame.length >>> 8), (byte) frame.length});
                out.write(frame);
            }
            out.flush();
            int read;
            try {
                read = raw.getInputStream().read();
            } catch (java.net.SocketException reset) {
                read = -1;
            }
            assertEquals(-1, read, "the adapter kept a peer that sent an undecodable frame, seed " + seed);
        }
        assertEquals(1, b.metrics().dropped(io.statecast.overlay.message.DecodeException.Reason.BAD_MAGIC), b.metrics().toString());
        assertEquals(1, tcp.metrics().dropped(InterfaceMetrics.ReceiveDrop.UNDECODABLE), tcp.metrics().toString());
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void shouldDropRandomDatagramsCountedAndKeepServing(Codec codec) throws IOException {
        Receiver rb = new Receiver();
        Adapter b = start(codec, new UdpInterface(UdpConfig.defaults()), rb);
        Adapter a = start(codec, new UdpInterface(UdpConfig.defaults()), new Receiver());
        int port = b.localAddresses().get(0).port();
        int garbage = 2000;

        try (DatagramSocket raw = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < garbage; i++) {
                byte[] junk = new byte[random.nextInt(300)];
                for (int k = 0; k < junk.length; k++) {
                    junk[k] = (byte) random.nextInt(256);
                }
                if (junk.length > 0 && (junk[0] & 0xff) == MessageCodec.MAGIC) {
                    junk[0] = 0; // the stand-in's one-byte magic would let some through
                }
                raw.send(new DatagramPacket(junk, junk.length, InetAddress.getLoopbackAddress(), port));
                if (i % 100 == 99) {
                    long expected = i + 1;
                    Await.until(() -> b.metrics().receiveDropsTotal() >= expected, Duration.ofSeconds(2)); // pace
                }
            }
        }
        Await.untilOrQuiet(() -> b.metrics().receiveDropsTotal() == garbage, b.metrics()::receiveDropsTotal,
                Duration.ofMillis(500), Duration.ofSeconds(10));
        a.send(b.localAddresses().get(0), message(0, 64));

        assertTrue(Await.until(() -> rb.counter.received() == 1, Duration.ofSeconds(10)), "node stopped serving");
        System.out.println("garbage datagrams (" + codec + " codec): " + b.metrics());
        long reachedTheAdapter = b.interfaces().get(0).metrics().framesReceived() - 1;
        assertEquals(reachedTheAdapter, b.metrics().receiveDropsTotal(), "every garbage frame is dropped and counted, seed " + seed);
        assertTrue(reachedTheAdapter >= garbage * 0.99, "loopback lost " + (garbage - reachedTheAdapter) + " of " + garbage);
        assertEquals(0, b.metrics().protocolReceived() + b.metrics().listenerFailures());
        assertEquals(0, rb.counter.corrupt());
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void shouldDeliverWhatTheFaultModelLetsThroughOnTheInMemorySubstrate(Codec codec) throws IOException {
        VirtualTimerService clock = new VirtualTimerService();
        MemNetwork net = new MemNetwork(clock, seed);
        net.faults().configure(FaultConfig.loss(0.1).withDelay(Duration.ofMillis(1), Duration.ofMillis(2)));
        Receiver rb = new Receiver();
        Adapter a = codec.adapter(clock, net.newInterface("a"));
        Adapter b = codec.adapter(clock, net.newInterface("b"));
        a.start(new Receiver());
        b.start(rb);

        for (int seq = 0; seq < 20_000; seq++) {
            a.send(SubstrateAddress.mem("b"), message(seq, 40));
            clock.advanceBy(100, TimeUnit.MICROSECONDS);
        }
        assertTrue(clock.runUntilIdle(1_000_000));

        FaultStats s = net.faults().stats();
        assertEquals(s.delivered(), rb.counter.received());
        assertTrue(Math.abs(s.lossRate() - 0.1) <= 0.01, "loss " + s.lossRate() + ", seed " + seed);
        assertEquals(0, rb.counter.corrupt() + rb.counter.duplicates());
        assertEquals(0, clock.taskFailures());
    }
}
