package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.ForwardingStatistics;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.forward.ScratchStore;
import io.statecast.overlay.forward.ServiceMetaops;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayId;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.WireMessage;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The receive-path warm-up before join: it drives the scratch path (and the store's scratch twin),
 * stays within its bound, and leaves no trace in the real socket — no datagram, no counter, nothing
 * for the application, nothing for the real store.
 */
class ReceivePathWarmUpTest {

    private static final int SERVICE = 7;
    /** The store forwards every service itself and takes relayed unicasts too. */
    private static final ServiceMetaops STORE_HANDLES_ALL = new ServiceMetaops(true, true, false, false);
    private static final String OVERLAY = "warm-up-test";
    private final MessageCodec codec = new MessageCodec(OverlayId.wireHash(OVERLAY), 64 * 1024);

    @Test
    void shouldRunEveryRoundThroughTheTwinAndDiscardWhatItSends() {
        RealStore store = new RealStore();
        ReceivePathWarmUp.Result r = ReceivePathWarmUp.run(codec, SubstrateAddress.udp("127.0.0.1", 9),
                LogicalAddress.Family.TREE, store, OverlayConfig.Forwarding.defaults(), 50, TimeUnit.SECONDS.toNanos(60),
                System::nanoTime);

        assertEquals(50, r.rounds());
        assertTrue(r.storeTwin());
        // per round: a plain multicast and unicast from the parent, the twin's payload and ACK from it
        assertEquals(50 * 4, r.frames());
        Twin twin = store.twins.get(0);
        assertEquals(50 * 2, twin.fromNetwork.get(), "payloads and ACKs decoded and handed to the twin");
        assertEquals(50, twin.fromApplication.get(), "the application's own messages through the engine's send");
        // rounds alternate: with a child, the plain multicast goes on, a payload is acknowledged and
        // forwarded, an own message goes to parent and child (5); as a leaf only the ACK and the
        // own message to the parent (2)
        assertEquals(25 * 5 + 25 * 2, r.transmissions());
        assertEquals(50 * 3, r.deliveries(), "the twin's deliveries and the plain multicast and unicast");
        assertTrue(twin.closed, "the twin is closed at the end");
        assertEquals(0, store.received.get(), "the real store sees nothing");
    }

    @Test
    void shouldStopAtItsTimeBound() {
        AtomicLong now = new AtomicLong();
        // every reading of the clock is one millisecond later: the bound is reached after ~20 readings
        ReceivePathWarmUp.Result r = ReceivePathWarmUp.run(codec, SubstrateAddress.udp("127.0.0.1", 9),
                LogicalAddress.Family.DT, new RealStore(), OverlayConfig.Forwarding.defaults(), 1_000_000,
                TimeUnit.MILLISECONDS.toNanos(20), () -> now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1)));

        assertTrue(r.rounds() >= 1 && r.rounds() <= 20, "rounds " + r.rounds());
        assertTrue(r.elapsedNanos() <= TimeUnit.MILLISECONDS.toNanos(20 + 3), "elapsed " + r.elapsedNanos());
    }

    @Test
    void shouldRunWithoutAStore() {
        ReceivePathWarmUp.Result r = ReceivePathWarmUp.run(codec, SubstrateAddress.mem("x"), LogicalAddress.Family.TREE,
                null, OverlayConfig.Forwarding.defaults(), 10, TimeUnit.SECONDS.toNanos(60), System::nanoTime);

        assertEquals(10, r.rounds());
        assertEquals(false, r.storeTwin());
        assertEquals(20, r.frames());
        assertEquals(5, r.transmissions(), "the plain multicast goes on to the child in every other round");
        assertEquals(20, r.deliveries());
    }

    @Test
    void shouldRefuseNegativeBounds() {
        assertThrows(IllegalArgumentException.class, () -> ReceivePathWarmUp.run(codec, SubstrateAddress.mem("x"),
                LogicalAddress.Family.TREE, null, OverlayConfig.Forwarding.defaults(), -1, 1, System::nanoTime));
    }

    @Test
    void shouldLeaveNoTraceInTheJoiningSocket() throws Exception {
        try (DatagramSocket buddy = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            buddy.setSoTimeout(10_000);
            RealStore store = new RealStore();
            OverlayConfig config = OverlayConfig.defaults(OVERLAY, NodeType.TREE).withAddress("5")
                    .withInterfaces(List.of(SubstrateAddress.udp("127.0.0.1", 0)))
                    .withBuddies(List.of(SubstrateAddress.udp("127.0.0.1", buddy.getLocalPort())));
            try (OverlaySocket s = OverlaySocket.builder(config).messageStore(store).build()) {
                s.joinAsync(); // the warm-up runs before the protocol starts; the buddy never answers

                assertEquals(1, store.twins.size(), "the warm-up ran with the store's twin");
                Twin twin = store.twins.get(0);
                assertTrue(twin.fromNetwork.get() > 0 && twin.closed);
                assertEquals(0, store.received.get(), "the real store got nothing");
                ForwardingStatistics f = s.statistics().forwarding();
                assertEquals(List.of(0L, 0L, 0L, 0L, 0L), List.of(f.received(), f.originated(), f.delivered(),
                        f.transmissions(), f.toStore()), f.toString());
                assertTrue(f.drops().values().stream().allMatch(v -> v == 0), f.toString());
                assertEquals(0, s.adapter().metrics().received());
                assertNull(s.receive(0, TimeUnit.MILLISECONDS), "nothing for the application");

                // Whatever the warm-up sent went out before joinAsync returned; a marker sent now
                // arrives after it. Up to the marker the buddy may only see the node's beacons.
                byte[] marker = "marker".getBytes(StandardCharsets.US_ASCII);
                try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                    probe.send(new DatagramPacket(marker, marker.length, buddy.getLocalSocketAddress()));
                }
                int beacons = 0;
                while (true) {
                    DatagramPacket p = new DatagramPacket(new byte[65_536], 65_536);
                    buddy.receive(p);
                    byte[] data = Arrays.copyOf(p.getData(), p.getLength());
                    if (Arrays.equals(data, marker)) {
                        break;
                    }
                    WireMessage m = codec.decode(Unpooled.wrappedBuffer(data));
                    assertInstanceOf(io.statecast.overlay.message.ProtocolMessage.class, m, "only protocol frames: " + m);
                    beacons++;
                }
                assertTrue(beacons <= s.adapter().metrics().sent(), "the buddy got the socket's beacons");
            }
        }
    }

    @Test
    void shouldBeSkippedOnInjectedTimers() throws Exception {
        RealStore store = new RealStore();
        io.statecast.overlay.substrate.VirtualTimerService clock = new io.statecast.overlay.substrate.VirtualTimerService();
        OverlayConfig config = OverlayConfig.defaults(OVERLAY, NodeType.TREE).withAddress("5")
                .withInterfaces(List.of(SubstrateAddress.udp("127.0.0.1", 0)));
        try (OverlaySocket s = OverlaySocket.builder(config).timers(clock).messageStore(store).build()) {
            s.joinAsync();
            assertEquals(0, store.twins.size(), "a simulation's socket does not warm up");
        }
    }

    /** The socket's store: counts what reaches it, hands out twins. */
    private static final class RealStore implements MessageStorePort {
        final AtomicInteger received = new AtomicInteger();
        final List<Twin> twins = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void open(OverlayContext context) {
        }

        @Override
        public ServiceMetaops metaops(int serviceId) {
            return STORE_HANDLES_ALL;
        }

        @Override
        public boolean receiveMessage(OverlayMessage message, Arrival arrival) {
            received.incrementAndGet();
            return true;
        }

        @Override
        public ScratchStore scratch() {
            Twin t = new Twin();
            twins.add(t);
            return t;
        }

        @Override
        public void close() {
        }
    }

    /** A twin that acts like an acknowledging service, at once on the calling thread. */
    private static final class Twin implements ScratchStore {
        final AtomicInteger fromNetwork = new AtomicInteger();
        final AtomicInteger fromApplication = new AtomicInteger();
        volatile boolean closed;
        private OverlayContext context;

        @Override
        public List<OverlayMessage> samples(LogicalAddress self, LogicalAddress peer, long messageId, int payloadBytes) {
            List<io.statecast.overlay.message.Extension> payload = List.of(
                    new FsmExtension(SERVICE, FsmExtension.PAYLOAD_TYPE, messageId), new PayloadExtension(new byte[payloadBytes]));
            return List.of(
                    new OverlayMessage(DeliveryMode.MULTICAST, 8, peer, null, peer, null, payload),
                    new OverlayMessage(DeliveryMode.UNICAST, 8, peer, self, peer, null,
                            List.of(new FsmExtension(SERVICE, (byte) 2, messageId))),
                    // the application's own payload, as a spec's "previous hop local" filter has it
                    new OverlayMessage(DeliveryMode.MULTICAST, 8, peer, null, self, null, payload));
        }

        @Override
        public int backlog() {
            return 0;
        }

        @Override
        public void open(OverlayContext c) {
            context = c;
        }

        @Override
        public ServiceMetaops metaops(int serviceId) {
            return STORE_HANDLES_ALL;
        }

        @Override
        public boolean receiveMessage(OverlayMessage m, Arrival arrival) {
            FsmExtension fsm = m.fsm();
            if (arrival == Arrival.FROM_APPLICATION) {
                fromApplication.incrementAndGet();
                context.forwardMessage(m);
                return true;
            }
            fromNetwork.incrementAndGet();
            if (fsm.messageType() == FsmExtension.PAYLOAD_TYPE) {
                context.sendControlMessage(SERVICE, (byte) 2, fsm.messageId(), null, Route.unicast(m.previousHop()));
                context.toApplication(m);
                context.forwardMessage(m);
            }
            return true;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
