package io.statecast.overlay.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DecodeException.Reason;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The frame layout byte for byte, and each refusal with the offset it names. */
class MessageCodecTest {

    private static final int HASH = 0x01020304;
    private static final int MAX = 1024;
    /** Where the extension chain starts in a frame without destination and root. */
    private static final int CHAIN = 27;

    private final MessageCodec codec = new MessageCodec(HASH, MAX);

    private static final OverlayMessage MULTICAST = new OverlayMessage(DeliveryMode.MULTICAST, 7,
            new DtAddress(1, 2), null, new DtAddress(3, 4), null, List.of());

    // ---- layout ------------------------------------------------------------------------------

    @Test
    void shouldWriteTheDocumentedApplicationLayout() throws DecodeException {
        OverlayMessage m = new OverlayMessage(DeliveryMode.MULTICAST, 7, new DtAddress(1, 2), null, new DtAddress(3, 4), null,
                List.of(new FsmExtension(5, FsmExtension.PAYLOAD_TYPE, 9), new PayloadExtension("hi".getBytes(StandardCharsets.US_ASCII))));
        String expected = "5c" + "01" + "01" + "01020304"
                + "02" + "07" + "01" + "00"
                + "0000000100000002" + "0000000300000004"
                + "02" + "0000000d" + "00000005" + "80" + "0000000000000009"
                + "01" + "00000002" + "6869"
                + "00";
        assertEquals(expected, ByteBufUtil.hexDump(frame(m)));
        assertEquals(m, codec.decode(Unpooled.wrappedBuffer(frame(m))));
    }

    /** Stored messages share the address objects of the nodes they name, one per node. */
    @Test
    void shouldDecodeTheSameAddressToTheSameObject() throws DecodeException {
        OverlayMessage m = new OverlayMessage(DeliveryMode.UNICAST, 3, new TreeAddress(1), new TreeAddress(2),
                new TreeAddress(1), new TreeAddress(2), List.of());
        OverlayMessage a = (OverlayMessage) codec.decode(Unpooled.wrappedBuffer(frame(m)));
        OverlayMessage b = (OverlayMessage) codec.decode(Unpooled.wrappedBuffer(frame(m)));
        assertEquals(m, a);
        assertSame(a.source(), b.source());
        assertSame(a.source(), a.previousHop(), "source and previous hop are the same node");
        assertSame(a.destination(), b.root());
    }

    @Test
    void shouldWriteDestinationThenRootWhenPresent() throws DecodeException {
        OverlayMessage m = new OverlayMessage(DeliveryMode.UNICAST, 0, new TreeAddress(1), new TreeAddress(2),
                new TreeAddress(3), new TreeAddress(-1), List.of());
        String expected = "5c" + "01" + "01" + "01020304"
                + "01" + "00" + "02" + "03"
                + "0000000000000001" + "0000000000000003" + "0000000000000002" + "ffffffffffffffff"
                + "00";
        assertEquals(expected, ByteBufUtil.hexDump(frame(m)));
        assertEquals(m, codec.decode(Unpooled.wrappedBuffer(frame(m))));
    }

    @Test
    void shouldWriteTheDocumentedProtocolLayout() throws DecodeException {
        ProtocolMessage m = new ProtocolMessage(255, "ab".getBytes(StandardCharsets.US_ASCII));
        assertEquals("5c" + "01" + "02" + "01020304" + "ff" + "00000002" + "6162", ByteBufUtil.hexDump(frame(m)));
        assertEquals(m, codec.decode(Unpooled.wrappedBuffer(frame(m))));
    }

    @Test
    void shouldKeepUnknownExtensionsIntactAndInOrder() throws DecodeException {
        OverlayMessage m = new OverlayMessage(DeliveryMode.FLOOD, 255, new DtAddress(-1, Integer.MIN_VALUE), null,
                new DtAddress(Integer.MAX_VALUE, 0), null,
                List.of(new UnknownExtension(255, new byte[] {1, 2, 3}), new PayloadExtension(new byte[0]), new UnknownExtension(5, new byte[0])));
        assertEquals(m, codec.decode(Unpooled.wrappedBuffer(frame(m))));
    }

    /** A reply's origin extension survives the wire and names the origin, in either address family. */
    @Test
    void shouldCarryTheOriginOfAReply() throws DecodeException {
        OverlayMessage ack = new OverlayMessage(DeliveryMode.UNICAST, 1, new DtAddress(3, 4), new DtAddress(1, 2),
                new DtAddress(3, 4), null, List.of(new FsmExtension(1, (byte) 2, -7L)));
        OverlayMessage named = Origin.attach(ack, new DtAddress(-5, 6));
        OverlayMessage back = (OverlayMessage) codec.decode(Unpooled.wrappedBuffer(frame(named)));
        assertEquals(named, back);
        assertEquals(new DtAddress(-5, 6), Origin.of(back));
        assertEquals(new DtAddress(3, 4), Origin.of(ack), "without the extension the origin is the source");
        OverlayMessage tree = Origin.attach(new OverlayMessage(DeliveryMode.UNICAST, 1, new TreeAddress(9),
                new TreeAddress(8), new TreeAddress(9), null, List.of(new FsmExtension(1, (byte) 2, 1L))), new TreeAddress(77));
        assertEquals(new TreeAddress(77), Origin.of((OverlayMessage) codec.decode(Unpooled.wrappedBuffer(frame(tree)))));
        assertEquals(named.extensions(), Origin.with(ack.extensions(), new DtAddress(-5, 6), ack.source()));
        assertSame(ack.extensions(), Origin.with(ack.extensions(), ack.source(), ack.source()), "the source needs none");
    }

    @Test
    void shouldReportOffsetsFromTheReaderIndexAndConsumeTheFrameEvenWhenRefusing() {
        ByteBuf buf = Unpooled.buffer();
        buf.writeBytes(new byte[] {9, 9, 9});
        byte[] f = frame(MULTICAST);
        f[OFFSET_FLAGS] = 0x10;
        buf.writeBytes(f);
        buf.readerIndex(3);
        DecodeException e = assertThrows(DecodeException.class, () -> codec.decode(buf));
        assertEquals(Reason.BAD_FIELD, e.reason());
        assertEquals(OFFSET_FLAGS, e.offset());
        assertEquals(buf.writerIndex(), buf.readerIndex());
    }

    @Test
    void shouldCopyPayloadsOutOfTheBuffer() throws DecodeException {
        OverlayMessage m = withExtensions(new PayloadExtension(new byte[] {1, 2, 3}));
        ByteBuf buf = Unpooled.wrappedBuffer(frame(m));
        OverlayMessage decoded = (OverlayMessage) codec.decode(buf);
        buf.setZero(0, buf.capacity());
        assertArrayEquals(new byte[] {1, 2, 3}, decoded.payload());
    }

    // ---- every refusal and its offset --------------------------------------------------------

    private static final int OFFSET_FLAGS = 10;

    @Test
    void shouldRefuseAFrameAboveTheMaximumBeforeReadingIt() {
        assertRefused(new byte[MAX + 1], Reason.TOO_LARGE, 0);
    }

    @Test
    void shouldRefuseLengthFieldsAboveTheMaximumAtTheLengthField() {
        byte[] f = frame(withExtensions(new PayloadExtension(new byte[4])));
        assertRefused(withInt(f, CHAIN + 1, MAX + 1), Reason.TOO_LARGE, CHAIN + 1);
        assertRefused(withInt(f, CHAIN + 1, -1), Reason.TOO_LARGE, CHAIN + 1);
        byte[] p = frame(new ProtocolMessage(1, new byte[4]));
        assertRefused(withInt(p, 8, Integer.MIN_VALUE), Reason.TOO_LARGE, 8);
    }

    @Test
    void shouldRefuseTruncatedFramesAtTheFieldThatIsCutOff() {
        byte[] app = frame(withExtensions(new PayloadExtension(new byte[10])));
        assertRefused(new byte[0], Reason.TRUNCATED, 0);
        assertRefused(Arrays.copyOf(app, 2), Reason.TRUNCATED, 2);
        assertRefused(Arrays.copyOf(app, 5), Reason.TRUNCATED, 3);
        assertRefused(Arrays.copyOf(app, 8), Reason.TRUNCATED, 8);
        assertRefused(Arrays.copyOf(app, 15), Reason.TRUNCATED, 11);
        assertRefused(Arrays.copyOf(app, 20), Reason.TRUNCATED, 19);
        assertRefused(Arrays.copyOf(app, CHAIN + 3), Reason.TRUNCATED, CHAIN + 1);
        assertRefused(Arrays.copyOf(app, CHAIN + 5 + 9), Reason.TRUNCATED, CHAIN + 5);

        byte[] withDestination = frame(new OverlayMessage(DeliveryMode.UNICAST, 1, new TreeAddress(1), new TreeAddress(2),
                new TreeAddress(3), new TreeAddress(4), List.of()));
        assertRefused(Arrays.copyOf(withDestination, 30), Reason.TRUNCATED, 27);
        assertRefused(Arrays.copyOf(withDestination, 40), Reason.TRUNCATED, 35);

        byte[] protocol = frame(new ProtocolMessage(1, new byte[10]));
        assertRefused(Arrays.copyOf(protocol, 7), Reason.TRUNCATED, 7);
        assertRefused(Arrays.copyOf(protocol, 10), Reason.TRUNCATED, 8);
        assertRefused(Arrays.copyOf(protocol, 21), Reason.TRUNCATED, 12);
    }

    @Test
    void shouldRefuseForeignTrafficByMagicVersionKindAndOverlay() {
        byte[] f = frame(MULTICAST);
        assertRefused(withByte(f, 0, 0x00), Reason.BAD_MAGIC, 0);
        assertRefused(new byte[] {(byte) 0xFF}, Reason.BAD_MAGIC, 0);
        assertRefused(withByte(f, 1, 0), Reason.BAD_VERSION, 1);
        assertRefused(withByte(f, 1, 2), Reason.BAD_VERSION, 1);
        assertRefused(withByte(f, 2, 0), Reason.UNKNOWN_KIND, 2);
        assertRefused(withByte(f, 2, 3), Reason.UNKNOWN_KIND, 2);
        assertRefused(withInt(f, 3, HASH + 1), Reason.FOREIGN_OVERLAY, 3);

        MessageCodec other = new MessageCodec(OverlayId.wireHash("another overlay"), MAX);
        DecodeException e = assertThrows(DecodeException.class, () -> other.decode(Unpooled.wrappedBuffer(frame(MULTICAST))));
        assertEquals(Reason.FOREIGN_OVERLAY, e.reason());
    }

    @Test
    void shouldRefuseHeaderFieldsOutOfRange() {
        byte[] f = frame(MULTICAST);
        assertRefused(withByte(f, 7, 0), Reason.BAD_FIELD, 7);
        assertRefused(withByte(f, 7, 4), Reason.BAD_FIELD, 7);
        assertRefused(withByte(f, 9, 0), Reason.BAD_FIELD, 9);
        assertRefused(withByte(f, 9, 3), Reason.BAD_FIELD, 9);
        assertRefused(withByte(f, OFFSET_FLAGS, 0x04), Reason.BAD_FIELD, OFFSET_FLAGS);
        assertRefused(withByte(f, OFFSET_FLAGS, 0x80), Reason.BAD_FIELD, OFFSET_FLAGS);
    }

    @Test
    void shouldRefuseAUnicastWithoutDestinationAtTheFlags() {
        byte[] unicast = frame(new OverlayMessage(DeliveryMode.UNICAST, 1, new DtAddress(1, 1), new DtAddress(2, 2),
                new DtAddress(3, 3), null, List.of()));
        byte[] withoutDestination = new byte[unicast.length - 8];
        System.arraycopy(unicast, 0, withoutDestination, 0, CHAIN);
        System.arraycopy(unicast, CHAIN + 8, withoutDestination, CHAIN, unicast.length - CHAIN - 8);
        withoutDestination[OFFSET_FLAGS] = 0;
        assertRefused(withoutDestination, Reason.BAD_FIELD, OFFSET_FLAGS);
    }

    @Test
    void shouldRefuseMalformedExtensionChains() {
        byte[] header = Arrays.copyOf(frame(MULTICAST), CHAIN);
        byte[] fsmBody = new byte[13];

        assertRefused(concat(header, ext(1, new byte[0]), ext(1, new byte[0]), end()), Reason.BAD_EXTENSION, CHAIN + 5);
        assertRefused(concat(header, ext(2, fsmBody), ext(7, new byte[2]), ext(2, fsmBody), end()), Reason.BAD_EXTENSION, CHAIN + 18 + 7);
        assertRefused(concat(header, ext(2, new byte[12]), end()), Reason.BAD_EXTENSION, CHAIN + 1);
        assertRefused(concat(header, ext(2, new byte[14]), end()), Reason.BAD_EXTENSION, CHAIN + 1);

        List<byte[]> parts = new ArrayList<>();
        parts.add(header);
        for (int i = 0; i < MessageCodec.MAX_EXTENSIONS + 1; i++) {
            parts.add(ext(5, new byte[0]));
        }
        parts.add(end());
        assertRefused(concat(parts.toArray(new byte[0][])), Reason.BAD_EXTENSION, CHAIN + 5 * MessageCodec.MAX_EXTENSIONS);

        assertRefused(header, Reason.BAD_EXTENSION, CHAIN);
        byte[] unterminated = concat(header, ext(1, new byte[3]));
        assertRefused(unterminated, Reason.BAD_EXTENSION, unterminated.length);
    }

    @Test
    void shouldAcceptExactlyMaxExtensions() throws DecodeException {
        List<Extension> extensions = new ArrayList<>();
        for (int i = 0; i < MessageCodec.MAX_EXTENSIONS; i++) {
            extensions.add(new UnknownExtension(5 + i, new byte[] {(byte) i}));
        }
        OverlayMessage m = withExtensions(extensions.toArray(new Extension[0]));
        assertEquals(m, codec.decode(Unpooled.wrappedBuffer(frame(m))));
    }

    @Test
    void shouldRefuseBytesAfterTheMessage() {
        byte[] app = frame(MULTICAST);
        assertRefused(Arrays.copyOf(app, app.length + 1), Reason.TRAILING_BYTES, app.length);
        byte[] protocol = frame(new ProtocolMessage(0, new byte[3]));
        assertRefused(Arrays.copyOf(protocol, protocol.length + 2), Reason.TRAILING_BYTES, protocol.length);
    }

    // ---- configuration and encode-side bounds ------------------------------------------------

    @Test
    void shouldRefuseAMaximumOutsideItsRangeNamingValueAndLimit() {
        IllegalArgumentException low = assertThrows(IllegalArgumentException.class, () -> new MessageCodec(0, 63));
        assertEquals("maxMessageBytes=63 < MIN_MAX_MESSAGE_BYTES=64", low.getMessage());
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class,
                () -> new MessageCodec(0, MessageCodec.MAX_MAX_MESSAGE_BYTES + 1));
        assertEquals("maxMessageBytes=16777217 > MAX_MAX_MESSAGE_BYTES=16777216", high.getMessage());
        assertEquals(64, new MessageCodec(0, 64).maxMessageBytes());
        assertEquals(MessageCodec.MAX_MAX_MESSAGE_BYTES, new MessageCodec(0, MessageCodec.MAX_MAX_MESSAGE_BYTES).maxMessageBytes());
    }

    @Test
    void shouldCarryTheLargestHeaderInTheSmallestAllowedFrame() throws DecodeException {
        MessageCodec smallest = new MessageCodec(HASH, MessageCodec.MIN_MAX_MESSAGE_BYTES);
        OverlayMessage m = new OverlayMessage(DeliveryMode.UNICAST, 3, new TreeAddress(1), new TreeAddress(2),
                new TreeAddress(3), new TreeAddress(4), List.of(new FsmExtension(1, FsmExtension.SERVICE_REQUEST_TYPE, 2)));
        ByteBuf buf = Unpooled.buffer();
        smallest.encode(m, buf);
        assertEquals(m, smallest.decode(buf));
    }

    @Test
    void shouldRefuseToEncodeMoreThanMaxExtensionsWithoutWriting() {
        List<Extension> extensions = new ArrayList<>();
        for (int i = 0; i <= MessageCodec.MAX_EXTENSIONS; i++) {
            extensions.add(new UnknownExtension(5, new byte[0]));
        }
        OverlayMessage m = withExtensions(extensions.toArray(new Extension[0]));
        ByteBuf out = Unpooled.buffer();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.encode(m, out));
        assertEquals("message has 17 extensions > MAX_EXTENSIONS=16", e.getMessage());
        assertEquals(0, out.writerIndex());
    }

    @Test
    void shouldRefuseToEncodeAFrameAboveTheMaximumNamingBothSizes() {
        OverlayMessage m = withExtensions(new PayloadExtension(new byte[MAX]));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.encodedSize(m));
        assertEquals("message needs a frame of " + (MessageCodec.MIN_APPLICATION_FRAME_BYTES + 5 + MAX)
                + " bytes > maxMessageBytes=" + MAX, e.getMessage());
    }

    // ---- allocation bounds ---------------------------------------------------------------------

    @Test
    void shouldNotAllocateWhatAHostileLengthFieldClaims() {
        com.sun.management.ThreadMXBean threads = allocationCounter();
        MessageCodec big = new MessageCodec(HASH, MessageCodec.MAX_MAX_MESSAGE_BYTES);
        byte[] protocol = withInt(frame(new ProtocolMessage(1, new byte[0])), 8, MessageCodec.MAX_MAX_MESSAGE_BYTES - 12);
        byte[] header = Arrays.copyOf(frame(MULTICAST), CHAIN);
        byte[] app = concat(header, new byte[] {1}, intBytes(MessageCodec.MAX_MAX_MESSAGE_BYTES - 100), new byte[16]);
        for (byte[] hostile : List.of(protocol, app)) {
            long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            DecodeException e = assertThrows(DecodeException.class, () -> big.decode(Unpooled.wrappedBuffer(hostile)));
            long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            assertEquals(Reason.TRUNCATED, e.reason());
            assertTrue(allocated < 256 * 1024, "decoding a " + hostile.length + "-byte frame allocated " + allocated + " bytes");
        }
    }

    @Test
    void shouldEncodeIntoAReusedBufferWithoutAllocating() {
        com.sun.management.ThreadMXBean threads = allocationCounter();
        OverlayMessage m = new OverlayMessage(DeliveryMode.MULTICAST, 16, new DtAddress(1, 2), null, new DtAddress(3, 4),
                new DtAddress(5, 6), List.of(new FsmExtension(1, FsmExtension.PAYLOAD_TYPE, 42), new PayloadExtension(new byte[512]),
                        new UnknownExtension(9, new byte[8])));
        ByteBuf out = Unpooled.buffer(MAX);
        for (int i = 0; i < 20_000; i++) {
            out.clear();
            codec.encode(m, out);
        }
        int rounds = 10_000;
        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < rounds; i++) {
            out.clear();
            codec.encode(m, out);
        }
        long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        // Measurement itself costs a few hundred bytes; one object per encode would cost >= 160 KB.
        assertTrue(allocated < rounds, rounds + " encodes allocated " + allocated + " bytes");
        out.release();
    }

    // ---- helpers -------------------------------------------------------------------------------

    private static com.sun.management.ThreadMXBean allocationCounter() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean, "JVM cannot count allocation");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(), "JVM cannot count allocation");
        return threads;
    }

    private void assertRefused(byte[] frame, Reason reason, int offset) {
        DecodeException e = assertThrows(DecodeException.class, () -> codec.decode(Unpooled.wrappedBuffer(frame)),
                () -> "expected " + reason + " for " + ByteBufUtil.hexDump(frame));
        assertEquals(reason, e.reason(), () -> e.getMessage() + " for " + ByteBufUtil.hexDump(frame));
        assertEquals(offset, e.offset(), () -> e.getMessage() + " for " + ByteBufUtil.hexDump(frame));
    }

    private byte[] frame(WireMessage m) {
        ByteBuf out = Unpooled.buffer();
        codec.encode(m, out);
        byte[] bytes = ByteBufUtil.getBytes(out);
        out.release();
        return bytes;
    }

    private static OverlayMessage withExtensions(Extension... extensions) {
        return new OverlayMessage(MULTICAST.mode(), MULTICAST.hopLimit(), MULTICAST.source(), null, MULTICAST.previousHop(), null,
                List.of(extensions));
    }

    private static byte[] withByte(byte[] f, int at, int value) {
        byte[] b = f.clone();
        b[at] = (byte) value;
        return b;
    }

    private static byte[] withInt(byte[] f, int at, int value) {
        byte[] b = f.clone();
        System.arraycopy(intBytes(value), 0, b, at, 4);
        return b;
    }

    private static byte[] intBytes(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static byte[] ext(int type, byte[] body) {
        return concat(new byte[] {(byte) type}, intBytes(body.length), body);
    }

    private static byte[] end() {
        return new byte[] {0};
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
