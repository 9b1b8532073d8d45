package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.statecast.overlay.address.SubstrateAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The handlers of the UDP interface's pipeline one at a time, on Netty's {@link EmbeddedChannel}
 * (no socket, no threads), in addition to the real-socket tests ({@link UdpBundleTest},
 * {@link UdpBatchingTest}): the bundle codec's byte layout and write order, and the classifier's
 * control-before-bulk hand-over and bounds.
 */
class UdpPipelineTest {

    private static final InetSocketAddress A = new InetSocketAddress("127.0.0.1", 40001);
    private static final InetSocketAddress B = new InetSocketAddress("127.0.0.1", 40002);
    private static final int LIMIT = UdpConfig.DEFAULT_BUNDLE_BYTES;

    private final InterfaceMetrics metrics = new InterfaceMetrics();
    private final LongAdder bundlesSent = new LongAdder();
    private final LongAdder bundlesReceived = new LongAdder();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** What the codec passes towards the socket, as it passes it: "to port: hex" per write, "flush". */
    private final List<String> wire = new ArrayList<>();

    private EmbeddedChannel codecChannel(int bundleLimit) {
        ChannelOutboundHandlerAdapter tap = new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                DatagramPacket p = (DatagramPacket) msg;
                wire.add(p.recipient().getPort() + ": " + ByteBufUtil.hexDump(p.content()));
                ctx.write(msg, promise);
            }

            @Override
            public void flush(ChannelHandlerContext ctx) {
                wire.add("flush");
                ctx.flush();
            }
        };
        return new EmbeddedChannel(tap, new UdpBundleCodec(UdpConfig.MAX_UDP_PAYLOAD_BYTES, bundleLimit, metrics,
                bundlesSent, bundlesReceived, closed::get));
    }

    private static String onWire(InetSocketAddress to, byte[] datagram) {
        return to.getPort() + ": " + ByteBufUtil.hexDump(datagram);
    }

    private static void releaseAll(EmbeddedChannel ch) {
        for (Object m; (m = ch.readOutbound()) != null;) {
            ((DatagramPacket) m).release();
        }
    }

    /** A frame of {@code size} bytes: the frame magic, then {@code tag}, then zeros. */
    private static byte[] frame(int tag, int size) {
        byte[] b = new byte[size];
        b[0] = 0x5C;
        b[1] = (byte) tag;
        return b;
    }

    private static DatagramPacket datagram(byte[] frame, InetSocketAddress to) {
        return new DatagramPacket(Unpooled.wrappedBuffer(frame), to);
    }

    /** The bundle layout: magic, version, then per frame a 16-bit length and the frame. */
    private static byte[] bundle(byte[]... frames) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte(UdpBundle.MAGIC).writeByte(UdpBundle.VERSION);
        for (byte[] f : frames) {
            b.writeShort(f.length).writeBytes(f);
        }
        return ByteBufUtil.getBytes(b);
    }

    private static byte[] bytesOf(DatagramPacket p) {
        try {
            return ByteBufUtil.getBytes(p.content());
        } finally {
            p.release();
        }
    }

    private static void writeVoid(EmbeddedChannel ch, DatagramPacket p) {
        ch.write(p, ch.voidPromise());
    }

    @Test
    void shouldPackEachDestinationsFramesInOrderAndWriteBundlesAtTheFlush() {
        EmbeddedChannel ch = codecChannel(LIMIT);
        byte[] a1 = frame(1, 60);
        byte[] b1 = frame(2, 70);
        byte[] a2 = frame(3, 80);
        byte[] b2 = frame(4, 90);
        byte[] a3 = frame(5, 100);
        writeVoid(ch, datagram(a1, A));
        writeVoid(ch, datagram(b1, B));
        writeVoid(ch, datagram(a2, A));
        writeVoid(ch, datagram(b2, B));
        writeVoid(ch, datagram(a3, A));
        assertEquals(List.of(), wire, "nothing leaves before the flush");
        ch.flush();
        DatagramPacket first = ch.readOutbound();
        DatagramPacket second = ch.readOutbound();
        assertNull(ch.readOutbound());
        assertEquals(A, first.recipient());
        assertArrayEquals(bundle(a1, a2, a3), bytesOf(first));
        assertEquals(B, second.recipient());
        assertArrayEquals(bundle(b1, b2), bytesOf(second));
        assertEquals(2, bundlesSent.sum());
        assertEquals(0, metrics.sendDropsTotal());
        assertFalse(ch.finish());
    }

    @Test
    void shouldWriteALoneFrameAsItCameAndABundleBeforeAFrameTooLargeToJoinIt() {
        EmbeddedChannel ch = codecChannel(LIMIT);
        byte[] alone = frame(1, 200);
        byte[] small1 = frame(2, 50);
        byte[] small2 = frame(3, 50);
        byte[] large = frame(4, 1470); // cannot share a datagram with any other frame
        writeVoid(ch, datagram(alone, B));
        writeVoid(ch, datagram(small1, A));
        writeVoid(ch, datagram(small2, A));
        writeVoid(ch, datagram(large, A));
        ch.flush();
        // A's bundle is written when the large frame comes, ahead of it; B's lone frame at the
        // flush, not wrapped in a bundle
        assertEquals(List.of(onWire(A, bundle(small1, small2)), onWire(A, large), onWire(B, alone), "flush"), wire);
        assertEquals(1, bundlesSent.sum());
        releaseAll(ch);
        assertFalse(ch.finish());
    }

    @Test
    void shouldCloseTheOldestBundleWhenMoreDestinationsThanOpenBundlesWait() {
        EmbeddedChannel ch = codecChannel(LIMIT);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i <= UdpBundleCodec.OPEN_BUNDLES; i++) {
            InetSocketAddress to = new InetSocketAddress("127.0.0.1", 41000 + i);
            byte[] f = frame(i, 40);
            writeVoid(ch, datagram(f, to));
            expected.add(onWire(to, f));
        }
        assertEquals(expected.subList(0, 1), wire, "the ninth destination pushed the first one's frame out");
        ch.flush();
        expected.add("flush");
        assertEquals(expected, wire);
        releaseAll(ch);
        assertFalse(ch.finish());
    }

    @Test
    void shouldNotPackAWriteWithARealPromiseAndCompleteItsPromise() {
        EmbeddedChannel ch = codecChannel(LIMIT);
        byte[] queued = frame(1, 50);
        byte[] own = frame(2, 50);
        writeVoid(ch, datagram(queued, A));
        ChannelPromise promise = ch.newPromise();
        ch.write(datagram(own, A), promise);
        assertEquals(List.of(onWire(A, queued), onWire(A, own)), wire, "the open bundle leaves first");
        ch.flush();
        assertTrue(promise.isSuccess());
        assertEquals(0, bundlesSent.sum());
        releaseAll(ch);
        assertFalse(ch.finish());
    }

    @Test
    void shouldWriteEveryFrameAloneWhenTheBundleLimitIsZero() {
        EmbeddedChannel ch = codecChannel(0);
        byte[] f1 = frame(1, 30);
        byte[] f2 = frame(2, 30);
        writeVoid(ch, datagram(f1, A));
        writeVoid(ch, datagram(f2, A));
        assertEquals(List.of(onWire(A, f1), onWire(A, f2)), wire, "written as they come");
        releaseAll(ch);
        assertFalse(ch.finish());
    }

    @Test
    void shouldReleaseAndCountUnflushedBundlesWhenTheChannelCloses() {
        EmbeddedChannel ch = codecChannel(LIMIT);
        DatagramPacket p1 = datagram(frame(1, 50), A);
        DatagramPacket p2 = datagram(frame(2, 50), A);
        DatagramPacket p3 = datagram(frame(3, 50), B);
        writeVoid(ch, p1);
        writeVoid(ch, p2);
        writeVoid(ch, p3);
        ch.close();
        ch.runPendingTasks();
        assertEquals(List.of(), wire);
        assertEquals(0, p1.refCnt(), "packed frames are released as they are packed");
        assertEquals(0, p3.refCnt(), "a lone frame never written is released");
        assertEquals(2, metrics.dropped(InterfaceMetrics.SendDrop.WRITE_FAILED), "one per datagram not written");
        assertNull(ch.readOutbound());
    }

    @Test
    void shouldSplitABundleIntoFramesMarkingTheFirstOfTheDatagram() {
        EmbeddedChannel ch = codecChannel(LIMIT);
        byte[] f1 = frame(1, 40);
        byte[] f2 = frame(2, 50);
        byte[] single = frame(3, 60);
        ch.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(bundle(f1, f2)), B, A));
        ch.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(single), B, A));
        SubstrateAddress from = new SubstrateAddress(SubstrateAddress.Scheme.UDP, "127.0.0.1:40001");
        UdpFrame r1 = ch.readInbound();
        UdpFrame r2 = ch.readInbound();
        UdpFrame r3 = ch.readInbound();
        assertNull(ch.readInbound());
        assertTrue(r1.firstOfDatagram());
        assertFalse(r2.firstOfDatagram());
        assertTrue(r3.firstOfDatagram());
        assertEquals(from, r1.from());
        assertEquals(from, r3.from());
        assertArrayEquals(f1, ByteBufUtil.getBytes(r1.content()));
        assertArrayEquals(f2, ByteBufUtil.getBytes(r2.content()));
        assertArrayEquals(single, ByteBufUtil.getBytes(r3.content()));
        r1.release();
        r2.release();
        r3.release();
        assertEquals(1, bundlesReceived.sum());
        assertFalse(ch.finish());
    }

    @Test
    void shouldDropAndCountMalformedOversizedAndLateDatagrams() {
        EmbeddedChannel ch = new EmbeddedChannel(new UdpBundleCodec(100, LIMIT, metrics, bundlesSent,
                bundlesReceived, closed::get));
        byte[] oneFrameBundle = bundle(frame(1, 20));
        ByteBuf bad = Unpooled.wrappedBuffer(oneFrameBundle);
        ByteBuf big = Unpooled.wrappedBuffer(frame(2, 101));
        ch.writeInbound(new DatagramPacket(bad, B, A));
        ch.writeInbound(new DatagramPacket(big, B, A));
        closed.set(true);
        ByteBuf late = Unpooled.wrappedBuffer(frame(3, 10));
        ch.writeInbound(new DatagramPacket(late, B, A));
        assertNull(ch.readInbound());
        assertEquals(1, metrics.dropped(InterfaceMetrics.ReceiveDrop.BAD_BUNDLE));
        assertEquals(1, metrics.dropped(InterfaceMetrics.ReceiveDrop.TOO_LARGE));
        assertEquals(1, metrics.dropped(InterfaceMetrics.ReceiveDrop.CLOSED));
        assertEquals(0, bad.refCnt() + big.refCnt() + late.refCnt(), "dropped datagrams are released");
        assertFalse(ch.finish());
    }

    /** Records what reaches the receiver; frames whose second byte is odd are bulk. */
    private static final class Recorder implements FrameReceiver {
        final List<Integer> tags = new ArrayList<>();
        boolean throwOnClassify;

        @Override
        public void onFrame(ByteBuf frame, SubstrateAddress from) {
            tags.add((int) frame.getByte(frame.readerIndex() + 1));
            frame.release();
        }

        @Override
        public boolean isBulk(ByteBuf frame) {
            if (throwOnClassify) {
                throw new IllegalStateException("classifier failure (test)");
            }
            return (frame.getByte(frame.readerIndex() + 1) & 1) == 1;
        }
    }

    private EmbeddedChannel receiveChannel(Recorder r, long backlogBytes) {
        ReceiveBufferRing ring = new ReceiveBufferRing(256, 4);
        return new EmbeddedChannel(new UdpClassifier(r, backlogBytes, ring, metrics, closed::get, "test"),
                new UdpDelivery(r, metrics, "test"));
    }

    private static UdpFrame received(int tag, boolean first) {
        return new UdpFrame(Unpooled.wrappedBuffer(frame(tag, 300)), new SubstrateAddress(
                SubstrateAddress.Scheme.UDP, "127.0.0.1:40001"), first);
    }

    @Test
    void shouldDeliverControlAtOnceAndBulkInOrderAfterTheReadEvent() {
        Recorder r = new Recorder();
        EmbeddedChannel ch = receiveChannel(r, 1 << 20);
        ch.pipeline().fireChannelRead(received(1, true)); // bulk
        ch.pipeline().fireChannelRead(received(2, true)); // control
        ch.pipeline().fireChannelRead(received(3, true)); // bulk
        assertEquals(List.of(2), r.tags, "control overtakes bulk within a read event");
        ch.pipeline().fireChannelReadComplete();
        assertEquals(List.of(2, 1, 3), r.tags);
        assertEquals(3, metrics.framesReceived());
        assertFalse(ch.finish());
    }

    @Test
    void shouldBoundTheBacklogInDatagramsCountingABundlesFramesOnce() {
        Recorder r = new Recorder();
        EmbeddedChannel ch = receiveChannel(r, 1L << 30);
        // every datagram a bundle of two bulk frames: the bound is in datagrams, so all of them fit
        for (int d = 0; d < UdpClassifier.BACKLOG_DATAGRAMS; d++) {
            ch.pipeline().fireChannelRead(received(1, true));
            ch.pipeline().fireChannelRead(received(3, false));
        }
        assertEquals(0, metrics.dropped(InterfaceMetrics.ReceiveDrop.BACKLOG_FULL));
        UdpFrame shed = received(5, true);
        ch.pipeline().fireChannelRead(shed);
        assertEquals(1, metrics.dropped(InterfaceMetrics.ReceiveDrop.BACKLOG_FULL));
        assertEquals(0, shed.refCnt());
        ch.pipeline().fireChannelRead(received(2, true)); // control still goes through
        assertEquals(List.of(2), r.tags);
        ch.close();
        assertEquals(2L * UdpClassifier.BACKLOG_DATAGRAMS, metrics.dropped(InterfaceMetrics.ReceiveDrop.CLOSED),
                "closing releases and counts every backlogged frame");
    }

    @Test
    void shouldBoundTheBacklogInBytes() {
        Recorder r = new Recorder();
        EmbeddedChannel ch = receiveChannel(r, 600); // two 300-byte frames
        ch.pipeline().fireChannelRead(received(1, true));
        ch.pipeline().fireChannelRead(received(3, true));
        ch.pipeline().fireChannelRead(received(5, true));
        assertEquals(1, metrics.dropped(InterfaceMetrics.ReceiveDrop.BACKLOG_FULL));
        ch.pipeline().fireChannelReadComplete();
        assertEquals(List.of(1, 3), r.tags);
        assertFalse(ch.finish());
    }

    @Test
    void shouldCountAClassifierFailureAndFramesAfterCloseAsDrops() {
        Recorder r = new Recorder();
        EmbeddedChannel ch = receiveChannel(r, 1 << 20);
        r.throwOnClassify = true;
        UdpFrame failed = received(2, true);
        ch.pipeline().fireChannelRead(failed);
        assertEquals(1, metrics.dropped(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR));
        assertEquals(0, failed.refCnt());
        r.throwOnClassify = false;
        ch.pipeline().fireChannelRead(received(1, true)); // bulk, waits
        closed.set(true);
        ch.pipeline().fireChannelRead(received(2, true));
        ch.pipeline().fireChannelReadComplete();
        assertEquals(List.of(), r.tags);
        assertEquals(2, metrics.dropped(InterfaceMetrics.ReceiveDrop.CLOSED), "the late frame and the waiting one");
        assertFalse(ch.finish());
    }

    @Test
    void shouldCopyAFrameThatWastesMostOfItsBufferIntoARightSizedOne() {
        List<ByteBuf> seen = new ArrayList<>();
        FrameReceiver keep = (frame, from) -> seen.add(frame);
        EmbeddedChannel ch = new EmbeddedChannel(new UdpClassifier(keep, 1 << 20, new ReceiveBufferRing(256, 4),
                metrics, closed::get, "test"), new UdpDelivery(keep, metrics, "test"));
        ByteBuf roomy = Unpooled.buffer(64 * 1024).writeBytes(frame(2, 100));
        ch.pipeline().fireChannelRead(new UdpFrame(roomy, new SubstrateAddress(SubstrateAddress.Scheme.UDP,
                "127.0.0.1:40001"), true));
        assertEquals(0, roomy.refCnt(), "the receive buffer is given back");
        assertEquals(1, seen.size());
        assertEquals(100, seen.get(0).capacity());
        assertArrayEquals(frame(2, 100), ByteBufUtil.getBytes(seen.get(0)));
        seen.get(0).release();
        assertFalse(ch.finish());
    }
}
