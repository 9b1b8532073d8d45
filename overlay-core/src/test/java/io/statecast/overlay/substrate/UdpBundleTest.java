package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.testkit.Await;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Small frames queued together for one destination leave in one datagram ({@link UdpBundle}),
 * in order, and a receiving interface splits them again; a malformed bundle is dropped whole and
 * counted. Real sockets on 127.0.0.1, a plain {@link DatagramSocket} on the other end to see and
 * forge the wire format.
 */
class UdpBundleTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    /** A frame of {@code size} bytes: the frame magic, then the sequence number. */
    private static byte[] frame(int seq, int size) {
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put((byte) 0x5C).putInt(seq);
        return b.array();
    }

    private static SubstrateAddress address(DatagramSocket s) {
        return new SubstrateAddress(SubstrateAddress.Scheme.UDP, "127.0.0.1:" + s.getLocalPort());
    }

    /** Sends {@code count} frames from an interface whose event loop is held, so one flush takes them all. */
    private List<byte[]> sendHeld(UdpConfig config, int count, int size) throws Exception {
        EventLoopGroup group = NettyLoops.newGroup("test-bundle");
        toClose.add(() -> NettyLoops.shutdown(group));
        UdpInterface a = new UdpInterface(config, group);
        toClose.add(a);
        a.start((frame, from) -> frame.release());
        DatagramSocket raw = new DatagramSocket(0, LOOPBACK);
        toClose.add(raw);
        raw.setSoTimeout(5_000);
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        group.execute(() -> {
            held.countDown();
            try {
                hold.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(held.await(30, TimeUnit.SECONDS));
        for (int i = 0; i < count; i++) {
            assertTrue(a.send(address(raw), Unpooled.wrappedBuffer(frame(i, size))));
        }
        hold.countDown();
        List<byte[]> datagrams = new ArrayList<>();
        int frames = 0;
        byte[] buf = new byte[65_536];
        while (frames < count) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            raw.receive(p);
            byte[] d = java.util.Arrays.copyOf(p.getData(), p.getLength());
            datagrams.add(d);
            frames += (d[0] & 0xFF) == UdpBundle.MAGIC ? framesOf(d).size() : 1;
        }
        return datagrams;
    }

    /** The frames of a bundle as the layout says (the test's own reading of it). */
    private static List<byte[]> framesOf(byte[] d) {
        ByteBuffer b = ByteBuffer.wrap(d);
        assertEquals(UdpBundle.MAGIC, b.get() & 0xFF);
        assertEquals(UdpBundle.VERSION, b.get() & 0xFF);
        List<byte[]> out = new ArrayList<>();
        while (b.hasRemaining()) {
            byte[] f = new byte[b.getShort() & 0xFFFF];
            b.get(f);
            out.add(f);
        }
        return out;
    }

    @Test
    void shouldPackSmallFramesForOneDestinationInOrderWithinTheMtu() throws Exception {
        List<byte[]> datagrams = sendHeld(UdpConfig.defaults(), 200, 60);
        List<Integer> seqs = new ArrayList<>();
        int bundles = 0;
        for (byte[] d : datagrams) {
            assertTrue(d.length <= UdpConfig.DEFAULT_BUNDLE_BYTES, "a datagram of " + d.length + " bytes");
            List<byte[]> frames = (d[0] & 0xFF) == UdpBundle.MAGIC ? framesOf(d) : List.of(d);
            bundles += frames.size() > 1 ? 1 : 0;
            for (byte[] f : frames) {
                assertEquals(60, f.length);
                seqs.add(ByteBuffer.wrap(f, 1, 4).getInt());
            }
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            expected.add(i);
        }
        assertEquals(expected, seqs, "every frame once, in order");
        // 60-byte frames: 23 to a 1,472-byte bundle, so 200 take 9 datagrams
        assertEquals(9, datagrams.size(), "datagrams: " + datagrams.size());
        assertEquals(9, bundles);
    }

    @Test
    void shouldSendLargeFramesAloneAndEveryFrameAloneWhenBundlingIsOff() throws Exception {
        List<byte[]> large = sendHeld(UdpConfig.defaults(), 20, 1024);
        assertEquals(20, large.size(), "two 1 KiB frames do not fit one bundle");
        for (byte[] d : large) {
            assertEquals(0x5C, d[0] & 0xFF, "sent as it was queued");
        }
        List<byte[]> off = sendHeld(UdpConfig.defaults().withBundleBytes(0), 50, 60);
        assertEquals(50, off.size());
    }

    private static byte[] bundle(int version, int... lengths) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(UdpBundle.MAGIC);
        out.writeByte(version);
        int seq = 0;
        for (int len : lengths) {
            out.writeShort(len);
            if (len >= 5) {
                out.write(frame(seq++, len));
            } else {
                out.write(new byte[len]);
            }
        }
        return bytes.toByteArray();
    }

    @Test
    void shouldSplitABundleAndDropMalformedOnesWhole() throws Exception {
        List<Integer> got = new CopyOnWriteArrayList<>();
        UdpInterface b = new UdpInterface(UdpConfig.defaults());
        toClose.add(b);
        b.start((frame, from) -> {
            got.add(frame.getInt(frame.readerIndex() + 1) * 1000 + frame.readableBytes());
            frame.release();
        });
        DatagramSocket raw = new DatagramSocket(0, LOOPBACK);
        toClose.add(raw);
        InetSocketAddress to = new InetSocketAddress(LOOPBACK, Integer.parseInt(
                b.localAddress().authority().substring(b.localAddress().authority().lastIndexOf(':') + 1)));
        List<byte[]> bad = new ArrayList<>();
        bad.add(bundle(2, 10, 10)); // another version
        bad.add(bundle(1, 10)); // one frame only
        bad.add(bundle(1, 10, 0)); // an empty frame
        byte[] past = bundle(1, 10, 10);
        past[2 + 2 + 10 + 1] = (byte) 200; // second length past the end
        bad.add(past);
        byte[] partial = java.util.Arrays.copyOf(bundle(1, 10, 10), 2 + 2 + 10 + 2 + 10 + 1); // a stray byte
        bad.add(partial);
        int[] many = new int[UdpBundle.MAX_FRAMES + 1];
        java.util.Arrays.fill(many, 5);
        bad.add(bundle(1, many)); // too many frames
        for (byte[] d : bad) {
            raw.send(new DatagramPacket(d, d.length, to));
        }
        byte[] good = bundle(1, 10, 20, 30);
        raw.send(new DatagramPacket(good, good.length, to));
        assertTrue(Await.until(() -> got.size() == 3, Duration.ofSeconds(10)), "got " + got + " " + b.metrics());
        assertEquals(List.of(10, 1020, 2030), got, "the good bundle's frames, in order, nothing from the others");
        assertEquals(bad.size(), b.metrics().dropped(InterfaceMetrics.ReceiveDrop.BAD_BUNDLE), b.metrics().toString());
        assertEquals(1, b.bundlesReceived());
    }

    @Test
    void shouldCarryBundlesBetweenTwoInterfacesEndToEnd() throws Exception {
        List<Integer> got = new CopyOnWriteArrayList<>();
        UdpInterface b = new UdpInterface(UdpConfig.defaults());
        toClose.add(b);
        b.start((frame, from) -> {
            got.add(frame.getInt(frame.readerIndex() + 1));
            frame.release();
        });
        UdpInterface a = new UdpInterface(UdpConfig.defaults());
        toClose.add(a);
        a.start((frame, from) -> frame.release());
        int n = 5_000;
        for (int i = 0; i < n; i++) {
            assertTrue(a.send(b.localAddress(), Unpooled.wrappedBuffer(frame(i, 48))));
        }
        assertTrue(Await.until(() -> got.size() == n, Duration.ofSeconds(30)), got.size() + " of " + n);
        for (int i = 0; i < n; i++) {
            assertEquals(i, got.get(i));
        }
        assertEquals(a.bundlesSent(), b.bundlesReceived(), "loopback loses nothing here");
    }
}
