package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class UdpInterfaceTest {

    private static final int MESSAGES = 100_000;
    /** Datagrams in flight at most: keeps loopback loss rare without hiding it. */
    private static final int WINDOW = 256;

    private final long seed = Seeds.seed();
    private final SplittableRandom random = new SplittableRandom(seed);
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private UdpInterface start(UdpConfig config, ExchangeCounter counter) throws IOException {
        UdpInterface i = new UdpInterface(config);
        toClose.add(i);
        i.start((frame, from) -> {
            counter.record(TestFrames.check(frame));
            frame.release();
        });
        return i;
    }

    @Test
    void shouldReportTheEphemeralPortItBound() throws IOException {
        UdpInterface i = start(UdpConfig.defaults(), new ExchangeCounter());

        assertEquals(SubstrateAddress.Scheme.UDP, i.localAddress().scheme());
        assertEquals("127.0.0.1", i.localAddress().host());
        assertNotEquals(0, i.localAddress().port());
        assertTrue(i.effectiveReceiveBufferBytes() > 0);
    }

    @Test
    void shouldExchangeOneHundredThousandDatagramsIntactOnLoopback() throws IOException {
        ExchangeCounter got = new ExchangeCounter();
        UdpInterface a = start(UdpConfig.defaults(), new ExchangeCounter());
        UdpInterface b = start(UdpConfig.defaults(), got);
        long stalls = 0;
        long notWritable = 0;

        for (int seq = 0; seq < MESSAGES; seq++) {
            if (seq - got.highest() > WINDOW) {
                long s = seq;
                if (!Await.until(() -> s - got.highest() <= WINDOW, Duration.ofMillis(200))) {
                    stalls++; // the window's head was lost; go on and count it below
                }
            }
            while (!a.isWritable(b.localAddress())) {
                notWritable++;
                assertTrue(Await.until(() -> a.isWritable(b.localAddress()), Duration.ofSeconds(10)), "socket stuck");
            }
            assertTrue(a.send(b.localAddress(), TestFrames.frame(seq, 16 + random.nextInt(497), random)));
        }
        Await.untilOrQuiet(() -> got.distinct() == MESSAGES, got::received, Duration.ofMillis(500), Duration.ofSeconds(30));

        long lost = MESSAGES - got.distinct();
        System.out.printf("UDP loopback: sent=%d received=%d lost=%d (%.3f%%) duplicates=%d corrupt=%d reordered=%d "
                        + "window stalls=%d not-writable waits=%d SO_RCVBUF=%d seed=%d%n",
                MESSAGES, got.received(), lost, 100.0 * lost / MESSAGES, got.duplicates(), got.corrupt(),
                got.outOfOrder(), stalls, notWritable, b.effectiveReceiveBufferBytes(), seed);
        assertEquals(0, got.corrupt(), "corrupt payloads, seed " + seed);
        assertEquals(0, got.duplicates(), "loopback does not duplicate");
        assertTrue(got.received() <= MESSAGES);
        assertTrue(lost <= MESSAGES / 100, "loopback lost " + lost + " of " + MESSAGES + " (more than 1%)");
        assertEquals(MESSAGES, a.metrics().framesSent());
        assertEquals(got.received(), b.metrics().framesReceived());
    }

    @Test
    void shouldDropAndCountDatagramsLargerThanTheMaximumAndKeepWorking() throws IOException {
        ExchangeCounter got = new ExchangeCounter();
        UdpInterface b = start(UdpConfig.defaults().withMaxDatagramBytes(100), got);
        UdpInterface a = start(UdpConfig.defaults().withMaxDatagramBytes(100), new ExchangeCounter());

        try (DatagramSocket raw = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            byte[] big = TestFrames.payload(1, 200, random);
            raw.send(new DatagramPacket(big, big.length, InetAddress.getLoopbackAddress(), b.localAddress().port()));
            byte[] ok = TestFrames.payload(2, 100, random);
            raw.send(new DatagramPacket(ok, ok.length, InetAddress.getLoopbackAddress(), b.localAddress().port()));
        }
        assertTrue(Await.until(() -> got.received() == 1, Duration.ofSeconds(10)));
        assertTrue(Await.until(() -> b.metrics().dropped(InterfaceMetrics.ReceiveDrop.TOO_LARGE) == 1, Duration.ofSeconds(10)));
        assertEquals(0, got.corrupt());

        assertFalse(a.send(b.localAddress(), TestFrames.frame(3, 101, random)));
        assertEquals(1, a.metrics().dropped(InterfaceMetrics.SendDrop.TOO_LARGE));
    }

    @Test
    void shouldRefuseFramesForOtherSchemesAndAfterClose() throws IOException {
        UdpInterface a = start(UdpConfig.defaults(), new ExchangeCounter());
        SubstrateAddress self = a.localAddress();

        assertFalse(a.send(SubstrateAddress.tcp("127.0.0.1", 9), Unpooled.buffer(1).writeByte(1)));
        a.close();
        a.close();
        assertFalse(a.send(self, Unpooled.buffer(1).writeByte(1)));

        assertEquals(1, a.metrics().dropped(InterfaceMetrics.SendDrop.WRONG_SCHEME));
        assertEquals(1, a.metrics().dropped(InterfaceMetrics.SendDrop.CLOSED));
        assertFalse(a.isWritable(self));
    }

    @Test
    void shouldFailToStartOnABoundPortWithAnIOException() throws IOException {
        UdpInterface a = start(UdpConfig.defaults(), new ExchangeCounter());
        UdpInterface clash = new UdpInterface(UdpConfig.defaults().withAddress("127.0.0.1", a.localAddress().port()));
        toClose.add(clash);

        IOException e = assertThrows(IOException.class, () -> clash.start((f, from) -> f.release()));
        assertTrue(e.getMessage().contains("cannot bind udp://127.0.0.1:" + a.localAddress().port()), e.getMessage());
    }
}
