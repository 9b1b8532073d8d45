package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.AddressRepository;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DecodeException;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.ProtocolMessage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The adapter's own behaviour, with a stand-in codec (see {@link StandInCodec}) on the in-memory
 * substrate and a virtual clock: runs without the real MessageCodec.
 */
class AdapterTest {

    private static final int MAX = 1000;

    private final VirtualTimerService timers = new VirtualTimerService();
    private final MemNetwork network = new MemNetwork(timers, Seeds.seed());
    private final List<String> received = new ArrayList<>();

    private final AdapterListener recorder = new AdapterListener() {
        @Override
        public void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
            received.add("protocol " + message.type() + " from " + from);
        }

        @Override
        public void onApplicationMessage(OverlayMessage message, SubstrateAddress from) {
            received.add("application " + new String(message.payload()) + " from " + from);
        }
    };

    private Adapter adapter(String name) {
        return new Adapter(new StandInCodec(MAX), timers, List.of(network.newInterface(name)),
                new AddressRepository(), AdapterConfig.defaults());
    }

    private static OverlayMessage application(String payload) {
        return new OverlayMessage(DeliveryMode.UNICAST, 8, new TreeAddress(1), new TreeAddress(2), new TreeAddress(1),
                null, List.of(new PayloadExtension(payload.getBytes())));
    }

    private void settle() {
        assertTrue(timers.runUntilIdle(100_000));
        assertEquals(0, timers.taskFailures(), () -> "an exception escaped into the substrate thread: " + timers.lastFailure());
    }

    @Test
    void shouldHandProtocolAndApplicationMessagesToTheirListenerMethods() throws IOException {
        Adapter a = adapter("a");
        Adapter b = adapter("b");
        a.start(recorder);
        b.start(recorder);

        assertTrue(a.send(SubstrateAddress.mem("b"), new ProtocolMessage(7, new byte[] {1, 2})));
        assertTrue(a.send(SubstrateAddress.mem("b"), application("hi")));
        settle();

        assertEquals(List.of("protocol 7 from mem://a", "application hi from mem://a"), received);
        assertEquals(1, b.metrics().protocolReceived());
        assertEquals(1, b.metrics().applicationReceived());
        assertEquals(2, a.metrics().sent());
        assertEquals(List.of(SubstrateAddress.mem("a")), a.localAddresses());
        assertEquals(SubstrateAddress.mem("a"), a.localAddress(SubstrateAddress.Scheme.MEM));
    }

    @Test
    void shouldDropMalformedFramesCountedByCauseReleaseThemAndKeepWorking() throws IOException {
        Adapter b = adapter("b");
        b.start(recorder);
        MemInterface evil = network.newInterface("evil");
        evil.start((f, from) -> f.release());
        List<ByteBuf> raw = List.of(
                Unpooled.buffer(0),                                           // TRUNCATED (empty)
                Unpooled.wrappedBuffer(new byte[] {0x00, 0x01, 0x02}),        // BAD_MAGIC
                Unpooled.wrappedBuffer(new byte[] {0x5C, 0x09}),              // UNKNOWN_KIND
                Unpooled.wrappedBuffer(new byte[] {0x5C, 0x01, 0x01}),        // TRUNCATED
                Unpooled.buffer(MAX + 1).writerIndex(MAX + 1),                // TOO_LARGE, before decoding
                Unpooled.wrappedBuffer(new byte[] {0x5C, 0x7F}));             // codec bug
        for (ByteBuf f : raw) {
            evil.send(b.localAddresses().get(0), f);
        }
        settle();
        Adapter a = adapter("a");
        a.start(recorder);
        a.send(SubstrateAddress.mem("b"), application("still here"));
        settle();

        AdapterMetrics m = b.metrics();
        assertEquals(2, m.dropped(DecodeException.Reason.TRUNCATED));
        assertEquals(1, m.dropped(DecodeException.Reason.BAD_MAGIC));
        assertEquals(1, m.dropped(DecodeException.Reason.UNKNOWN_KIND));
        assertEquals(1, m.dropped(DecodeException.Reason.TOO_LARGE));
        assertEquals(1, m.dropped(AdapterMetrics.ReceiveDrop.CODEC_FAILURE));
        assertEquals(6, m.receiveDropsTotal());
        assertEquals(List.of("application still here from mem://a"), received);
        for (ByteBuf f : raw) {
            assertEquals(0, f.refCnt(), "the adapter releases every frame, malformed or not");
        }
        Map<String, Long> snapshot = m.snapshot();
        assertEquals(1L, snapshot.get("rx.dropped.bad_magic"));
        assertEquals(1L, snapshot.get("rx.dropped.codec_failure"));
        assertEquals(1L, snapshot.get("rx.application"));
    }

    @Test
    void shouldContainListenerFailuresAndGoOnDelivering() throws IOException {
        List<String> delivered = new ArrayList<>();
        Adapter b = adapter("b");
        b.start(new AdapterListener() {
            @Override
            public void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onApplicationMessage(OverlayMessage message, SubstrateAddress from) {
                delivered.add(new String(message.payload()));
            }
        });
        Adapter a = adapter("a");
        a.start(recorder);

        for (int i = 0; i < 10; i++) {
            a.send(SubstrateAddress.mem("b"), new ProtocolMessage(1, new byte[0]));
            a.send(SubstrateAddress.mem("b"), application("m" + i));
        }
        settle();

        assertEquals(10, b.metrics().listenerFailures());
        assertEquals(10, delivered.size());
        assertEquals(0, b.interfaces().get(0).metrics().dropped(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR),
                "nothing escaped into the interface");
    }

    @Test
    void shouldDropAndCountUnsendableMessagesByCause() throws IOException {
        MemNetwork tiny = new MemNetwork(timers, new FaultModel(1), new MemNetworkConfig(50, 1000));
        Adapter a = new Adapter(new StandInCodec(MAX), timers, List.of(tiny.newInterface("a")),
                new AddressRepository(), AdapterConfig.defaults());
        SubstrateAddress peer = SubstrateAddress.mem("peer");

        assertFalse(a.send(peer, application("before start")));
        a.start(recorder);
        assertFalse(a.send(SubstrateAddress.udp("127.0.0.1", 9), application("no udp interface")));
        assertFalse(a.send(peer, application("x".repeat(MAX))));
        OverlayMessage withFsm = new OverlayMessage(DeliveryMode.FLOOD, 3, new TreeAddress(1), null, new TreeAddress(1),
                null, List.of(new FsmExtension(1, FsmExtension.PAYLOAD_TYPE, 9L)));
        assertFalse(a.send(peer, withFsm));
        assertFalse(a.send(peer, application("y".repeat(100))), "the interface's own limit is 50 bytes");
        assertTrue(a.send(peer, application("fits")));
        settle(); // nobody is at mem://peer: the frame is released as undeliverable
        assertEquals(1, tiny.undeliverable());
        a.close();
        a.close();
        assertFalse(a.send(peer, application("after close")));

        AdapterMetrics m = a.metrics();
        assertEquals(2, m.dropped(AdapterMetrics.SendDrop.CLOSED));
        assertEquals(1, m.dropped(AdapterMetrics.SendDrop.NO_INTERFACE));
        assertEquals(1, m.dropped(AdapterMetrics.SendDrop.TOO_LARGE));
        assertEquals(1, m.dropped(AdapterMetrics.SendDrop.ENCODE_FAILED));
        assertEquals(1, m.dropped(AdapterMetrics.SendDrop.INTERFACE_REFUSED));
        assertEquals(1, m.sent());
        assertEquals(6, m.sendDropsTotal());
        assertEquals(1L, m.snapshot().get("tx.dropped.no_interface"));
        assertFalse(a.isRunning());
    }

    @Test
    void shouldValidateItsInterfaces() {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> new Adapter(new StandInCodec(MAX), timers, List.of(), new AddressRepository(), AdapterConfig.defaults()));
        assertTrue(none.getMessage().contains("at least one"), none.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> new Adapter(new StandInCodec(MAX), timers, List.of(network.newInterface("x"), network.newInterface("y")),
                        new AddressRepository(), AdapterConfig.defaults()));
        assertTrue(twice.getMessage().contains("two interfaces of scheme mem"), twice.getMessage());
    }

    @Test
    void shouldStartOnceAndCloseEverythingWhenAnInterfaceFailsToStart() throws IOException {
        UdpInterface taken = new UdpInterface(UdpConfig.defaults());
        taken.start((f, from) -> f.release());
        try {
            MemInterface mem = network.newInterface("m");
            UdpInterface clash = new UdpInterface(UdpConfig.defaults().withAddress("127.0.0.1", taken.localAddress().port()));
            Adapter a = new Adapter(new StandInCodec(MAX), timers, List.of(mem, clash), new AddressRepository(),
                    AdapterConfig.defaults());

            assertThrows(IOException.class, () -> a.start(recorder));
            assertFalse(a.isRunning());
            assertFalse(mem.send(SubstrateAddress.mem("m"), Unpooled.buffer(1).writeByte(1)), "mem interface closed too");
            assertThrows(IllegalStateException.class, () -> a.start(recorder));
        } finally {
            taken.close();
        }
        Adapter b = adapter("b");
        b.start(recorder);
        List<String> other = new ArrayList<>();
        AdapterListener intruder = new AdapterListener() {
            @Override
            public void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
                other.add("protocol");
            }

            @Override
            public void onApplicationMessage(OverlayMessage message, SubstrateAddress from) {
                other.add("application");
            }
        };
        assertThrows(IllegalStateException.class, () -> b.start(intruder));
        Adapter c = adapter("c");
        c.start(recorder);
        c.send(SubstrateAddress.mem("b"), new ProtocolMessage(1, new byte[0]));
        settle();
        assertEquals(List.of(), other, "a refused start must not replace the listener");
        assertEquals(1, received.size());
    }

    @Test
    void shouldExposeItsRepositoryAndTimers() {
        AddressRepository repo = new AddressRepository();
        Adapter a = new Adapter(new StandInCodec(MAX), timers, List.of(network.newInterface("a")), repo,
                new AdapterConfig(Duration.ofSeconds(1)));

        assertSame(repo, a.addressRepository());
        assertSame(timers, a.timers());
    }
}
