package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The UDP interface's send batching (one queue, one flush per batch) and its receive backlog
 * (control frames ahead of bulk frames, bulk shed when the backlog is full), on real sockets on
 * 127.0.0.1.
 */
class UdpBatchingTest {

    private final long seed = Seeds.seed();
    private final SplittableRandom random = new SplittableRandom(seed);
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private UdpInterface start(FrameReceiver receiver) throws IOException {
        UdpInterface i = new UdpInterface(UdpConfig.defaults());
        toClose.add(i);
        i.start(receiver);
        return i;
    }

    /** Records sequence numbers; classifies every frame as bulk or as control, as asked. */
    private static FrameReceiver recorder(ExchangeCounter counter, boolean bulk) {
        return new FrameReceiver() {
            @Override
            public void onFrame(ByteBuf frame, SubstrateAddress from) {
                counter.record(TestFrames.check(frame));
                frame.release();
            }

            @Override
            public boolean isBulk(ByteBuf frame) {
                return bulk;
            }
        };
    }

    private static Thread run(String name, Runnable body, AtomicReference<Throwable> failure) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, name);
        t.start();
        return t;
    }

    @ParameterizedTest(name = "bulk={0}")
    @ValueSource(booleans = {false, true})
    void shouldDeliverABurstSentFromAnotherThreadCompleteAndInOrder(boolean bulk) throws Exception {
        int n = 2_000; // about 2.6 MB of socket buffer at most: fits the 4 MiB SO_RCVBUF
        ExchangeCounter got = new ExchangeCounter();
        UdpInterface a = start((frame, from) -> frame.release());
        UdpInterface b = start(recorder(got, bulk));
        List<ByteBuf> frames = new ArrayList<>(n);
        for (int seq = 0; seq < n; seq++) {
            frames.add(TestFrames.frame(seq, 16 + random.nextInt(497), random));
        }
        AtomicLong refused = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();

        Thread shard = run("burst-sender", () -> {
            for (ByteBuf f : frames) {
                if (!a.send(b.localAddress(), f)) {
                    refused.incrementAndGet();
                }
            }
        }, failure);
        shard.join();
        boolean complete = Await.until(() -> got.distinct() == n, Duration.ofSeconds(30));

        String context = got + " sender " + a.metrics() + " receiver " + b.metrics() + " seed " + seed;
        assertEquals(null, failure.get(), context);
        assertEquals(0, refused.get(), context);
        assertTrue(complete, context);
        assertEquals(0, got.outOfOrder(), context);
        assertEquals(0, got.duplicates(), context);
        assertEquals(0, got.corrupt(), context);
        assertEquals(n, a.metrics().framesSent(), context);
        assertEquals(0, a.metrics().sendDropsTotal(), context);
    }

    @Test
    void shouldKeepEachSendersOrderWhenSeveralThreadsSendAtOnce() throws Exception {
        int threads = 4;
        int perThread = 500;
        long[] next = new long[threads];
        AtomicLong outOfOrder = new AtomicLong();
        AtomicLong received = new AtomicLong();
        UdpInterface a = start((frame, from) -> frame.release());
        UdpInterface b = start((frame, from) -> {
            long v = TestFrames.check(frame);
            frame.release();
            int t = (int) (v / perThread);
            if (v < 0 || t >= threads || v % perThread != next[t]) { // confined to b's event loop
                outOfOrder.incrementAndGet();
            } else {
                next[t]++;
            }
            received.incrementAndGet();
        });
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<ByteBuf> frames = new ArrayList<>(perThread);
            for (int i = 0; i < perThread; i++) {
                frames.add(TestFrames.frame((long) t * perThread + i, 16 + random.nextInt(241), random));
            }
            senders.add(run("sender-" + t, () -> frames.forEach(f -> assertTrue(a.send(b.localAddress(), f))), failure));
        }
        for (Thread t : senders) {
            t.join();
        }
        boolean complete = Await.until(() -> received.get() == (long) threads * perThread, Duration.ofSeconds(30));

        String context = "received " + received + " next " + java.util.Arrays.toString(next) + " sender " + a.metrics()
                + " receiver " + b.metrics() + " seed " + seed;
        assertEquals(null, failure.get(), context);
        assertTrue(complete, context);
        assertEquals(0, outOfOrder.get(), context);
    }

    @Test
    void shouldDeliverControlFramesAheadOfABulkFloodAndShedBulkWhenTheBacklogIsFull() throws Exception {
        int flood = 3_000; // more than the backlog holds
        AtomicLong bulkRead = new AtomicLong();
        AtomicLong bulkDelivered = new AtomicLong();
        AtomicLong controlDelivered = new AtomicLong();
        AtomicLong waitingAtControl = new AtomicLong(-1);
        AtomicBoolean fast = new AtomicBoolean();
        AtomicReference<UdpInterface> self = new AtomicReference<>();
        UdpInterface b = start(new FrameReceiver() {
            @Override
            public void onFrame(ByteBuf frame, SubstrateAddress from) {
                boolean control = frame.getByte(frame.readerIndex()) == 'C';
                frame.release();
                if (control) {
                    long shed = self.get().metrics().dropped(InterfaceMetrics.ReceiveDrop.BACKLOG_FULL);
                    waitingAtControl.set(bulkRead.get() - bulkDelivered.get() - shed);
                    controlDelivered.incrementAndGet();
                    return;
                }
                // A slow consumer of bulk data (bounded, no sleeping): 1 ms per frame until released.
                long until = System.nanoTime() + 1_000_000;
                while (!fast.get() && System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
                bulkDelivered.incrementAndGet();
            }

            @Override
            public boolean isBulk(ByteBuf frame) {
                boolean bulk = frame.getByte(frame.readerIndex()) != 'C';
                if (bulk) {
                    bulkRead.incrementAndGet();
                }
                return bulk;
            }
        });
        self.set(b);
        byte[] data = new byte[1000];
        data[0] = 'D';
        byte[] control = {'C', 1, 2, 3};
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (DatagramSocket s = new DatagramSocket(0, loopback)) {
            for (int i = 0; i < flood; i++) {
                s.send(new DatagramPacket(data, data.length, loopback, b.localAddress().port()));
            }
            // Every bulk frame read (or lost in the kernel): the backlog is full and drains slowly.
            Await.untilOrQuiet(() -> bulkRead.get() == flood, bulkRead::get, Duration.ofMillis(300), Duration.ofSeconds(30));
            s.send(new DatagramPacket(control, control.length, loopback, b.localAddress().port()));
            boolean delivered = Await.until(() -> controlDelivered.get() == 1, Duration.ofSeconds(30));
            fast.set(true);

            long shed = b.metrics().dropped(InterfaceMetrics.ReceiveDrop.BACKLOG_FULL);
            String context = "bulk read " + bulkRead + " delivered " + bulkDelivered + " shed " + shed
                    + " waiting when the control frame was delivered " + waitingAtControl + " " + b.metrics();
            assertTrue(delivered, context);
            assertTrue(waitingAtControl.get() > 0, "the control frame did not overtake waiting bulk frames: " + context);
            assertTrue(shed > 0, context);
            assertTrue(bulkRead.get() - shed <= UdpInterface.BACKLOG_DATAGRAMS + bulkDelivered.get(), context);
            assertTrue(Await.until(() -> bulkDelivered.get() + shed == bulkRead.get(), Duration.ofSeconds(30)),
                    "the backlog did not drain: " + context);
            assertEquals(0, b.metrics().dropped(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR), context);
        }
    }

    @Test
    void shouldReleaseTheBacklogWhenClosed() throws Exception {
        AtomicLong read = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        UdpInterface b = start(new FrameReceiver() {
            @Override
            public void onFrame(ByteBuf frame, SubstrateAddress from) {
                frame.release();
                long until = System.nanoTime() + 2_000_000;
                while (!stop.get() && System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
            }

            @Override
            public boolean isBulk(ByteBuf frame) {
                read.incrementAndGet();
                return true;
            }
        });
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (DatagramSocket s = new DatagramSocket(0, loopback)) {
            byte[] data = new byte[100];
            for (int i = 0; i < 200; i++) {
                s.send(new DatagramPacket(data, data.length, loopback, b.localAddress().port()));
            }
        }
        Await.untilOrQuiet(() -> read.get() == 200, read::get, Duration.ofMillis(300), Duration.ofSeconds(30));
        stop.set(true);
        b.close();

        InterfaceMetrics m = b.metrics();
        assertEquals(read.get(), m.framesReceived() + m.dropped(InterfaceMetrics.ReceiveDrop.CLOSED)
                + m.dropped(InterfaceMetrics.ReceiveDrop.BACKLOG_FULL), m.toString());
    }

    @Test
    void shouldRefuseSendsWhileTheQueueHoldsTheConfiguredBytesAndAcceptThemAgainOnceFlushed() throws Exception {
        io.netty.channel.EventLoopGroup group = NettyLoops.newGroup("test-blocked");
        toClose.add(() -> NettyLoops.shutdown(group));
        UdpConfig config = new UdpConfig("127.0.0.1", 0, 1 << 20, 1 << 20, 2048, 64 * 1024, UdpConfig.DEFAULT_BUNDLE_BYTES);
        UdpInterface a = new UdpInterface(config, group);
        toClose.add(a);
        a.start((frame, from) -> frame.release());
        AtomicLong received = new AtomicLong();
        UdpInterface b = start((frame, from) -> {
            frame.release();
            received.incrementAndGet();
        });
        java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        group.execute(() -> { // keeps a's event loop from flushing until released (bounded wait)
            held.countDown();
            try {
                hold.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(held.await(30, java.util.concurrent.TimeUnit.SECONDS));
        long accepted = 0;
        for (int i = 0; i < 100; i++) { // 100 KiB > the 64 KiB queue
            if (a.send(b.localAddress(), Unpooled.wrappedBuffer(new byte[1024]))) {
                accepted++;
            }
        }
        boolean writableWhileHeld = a.isWritable(b.localAddress());
        long controlSized = 0;
        for (int i = 0; i < 100; i++) { // a reserve of 8 KiB for control-sized frames: 32 of 256 B
            if (a.send(b.localAddress(), Unpooled.wrappedBuffer(new byte[FrameCodec.SMALL_FRAME_BYTES]))) {
                controlSized++;
            }
        }
        boolean dataRefusedStill = !a.send(b.localAddress(), Unpooled.wrappedBuffer(new byte[FrameCodec.SMALL_FRAME_BYTES + 1]));
        accepted += controlSized;
        hold.countDown();
        long acceptedWhileHeld = accepted;
        boolean drained = Await.until(() -> received.get() == acceptedWhileHeld, Duration.ofSeconds(30));

        String context = "accepted " + accepted + " received " + received + " " + a.metrics();
        assertEquals(32, controlSized, context); // the reserve: an eighth of the queue, for heartbeats and ACKs
        assertTrue(dataRefusedStill, context);
        assertEquals(64 + 32, accepted, context); // 64 x 1 KiB fill the queue exactly
        assertEquals(100 - 64 + 100 - 32 + 1, a.metrics().dropped(InterfaceMetrics.SendDrop.NOT_WRITABLE), context);
        assertFalse(writableWhileHeld, context);
        assertTrue(drained, context);
        assertTrue(Await.until(() -> a.isWritable(b.localAddress()), Duration.ofSeconds(30)), context);
        assertTrue(a.send(b.localAddress(), Unpooled.wrappedBuffer(new byte[1024])), context);
        a.close();
        assertFalse(a.send(b.localAddress(), Unpooled.wrappedBuffer(new byte[1])));
        assertEquals(1, a.metrics().dropped(InterfaceMetrics.SendDrop.CLOSED));
    }

    @Test
    void shouldClassifyOnlyProtocolFramesOfTheRealCodecAsControl() {
        FrameCodec codec = FrameCodec.of(new MessageCodec(0x5eed, MessageCodec.DEFAULT_MAX_MESSAGE_BYTES));
        ByteBuf protocol = Unpooled.buffer();
        codec.encode(new ProtocolMessage(3, new byte[] {1, 2}), protocol);
        ByteBuf application = Unpooled.buffer();
        codec.encode(new OverlayMessage(DeliveryMode.UNICAST, 16, new TreeAddress(1), new TreeAddress(2),
                new TreeAddress(1), null, List.of(new PayloadExtension(new byte[] {9}))), application);
        ByteBuf garbage = Unpooled.wrappedBuffer(new byte[] {0x5C, 1});
        ByteBuf wrongMagic = protocol.copy().setByte(0, 0x5D);
        int before = protocol.readerIndex();

        assertTrue(codec.isControlFrame(protocol));
        assertEquals(before, protocol.readerIndex());
        assertFalse(codec.isControlFrame(application));
        assertFalse(codec.isControlFrame(garbage));
        assertFalse(codec.isControlFrame(wrongMagic));
        assertFalse(codec.isControlFrame(Unpooled.EMPTY_BUFFER));
    }

    @Test
    void theAdapterRanksProtocolFramesAndSmallServiceFramesAheadOfData() {
        FrameCodec codec = FrameCodec.of(new MessageCodec(0x5eed, MessageCodec.DEFAULT_MAX_MESSAGE_BYTES));
        ByteBuf protocol = Unpooled.buffer();
        codec.encode(new ProtocolMessage(3, new byte[600]), protocol);
        ByteBuf ack = Unpooled.buffer();
        codec.encode(new OverlayMessage(DeliveryMode.UNICAST, 1, new TreeAddress(2), new TreeAddress(1),
                new TreeAddress(2), null, List.of(new FsmExtension(1, (byte) 2, 77))), ack);
        ByteBuf data = Unpooled.buffer();
        codec.encode(new OverlayMessage(DeliveryMode.MULTICAST, 16, new TreeAddress(1), null, new TreeAddress(1), null,
                List.of(new FsmExtension(1, FsmExtension.PAYLOAD_TYPE, 77), new PayloadExtension(new byte[1024]))), data);

        assertFalse(Adapter.isBulk(codec, protocol), "protocol frames, however large");
        assertFalse(Adapter.isBulk(codec, ack), ack.readableBytes() + "-byte service control frame");
        assertTrue(Adapter.isBulk(codec, data), "a 1 KiB payload");
    }
}
