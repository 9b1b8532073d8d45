package io.statecast.messagestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayId;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.socket.ReceivePathWarmUp;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The store's part of the receive-path warm-up: a scratch twin with the loaded services runs real
 * instances on its own shards, and the store it was made from shows none of it.
 */
class ScratchTwinTest {

    private final MessageCodec codec = new MessageCodec(OverlayId.wireHash("twin-test"), 64 * 1024);

    private static MessageStore store() throws Exception {
        MessageStore store = new MessageStore(MessageStoreConfig.defaults().withShards(2), Specs.loader(),
                SpecResolver.defaults());
        store.install(Specs.load("specs/ack-service.scxml"));
        return store;
    }

    @Test
    void shouldRunTheServicesInTheTwinAndLeaveTheStoreUntouched() throws Exception {
        try (MessageStore store = store()) {
            MessageStoreMetrics before = store.metrics();
            ReceivePathWarmUp.Result r = ReceivePathWarmUp.run(codec, SubstrateAddress.Scheme.UDP,
                    LogicalAddress.Family.TREE, store, OverlayConfig.Forwarding.defaults(), 100,
                    TimeUnit.SECONDS.toNanos(60));

            assertEquals(100, r.rounds(), r.toString());
            assertTrue(r.storeTwin(), r.toString());
            // the ack service delivers every payload and acknowledges it: both reached the scratch path
            assertTrue(r.deliveries() >= 100 * 3, r.toString());
            assertTrue(r.transmissions() >= 100, r.toString());

            MessageStoreMetrics after = store.metrics();
            CountersSnapshot node = after.node();
            assertEquals(0, node.messages(), after.format());
            assertEquals(0, node.created(), after.format());
            assertEquals(0, node.totalDrops(), after.format());
            assertEquals(0, store.liveInstances(), after.format());
            assertEquals(before.service(42).counters().messages(), after.service(42).counters().messages());
            assertEquals(0, after.service(42).counters().created(), after.format());
        }
    }

    @Test
    void shouldRunTheReceivingBranchOfAHopByHopServiceInEveryRound() throws Exception {
        // The h2h listing answers ACK Requests, NACKs and Resets too: its payload must reach each
        // round's instance first, or the instance is gone (or waits for a payload it takes for a
        // duplicate) and the branch that acknowledges and delivers never runs.
        try (MessageStore store = new MessageStore(MessageStoreConfig.defaults().withShards(2), Specs.loader(),
                SpecResolver.defaults())) {
            store.install(Specs.load("specs/blueprint-h2h.scxml"));
            ReceivePathWarmUp.Result r = ReceivePathWarmUp.run(codec, SubstrateAddress.Scheme.UDP,
                    LogicalAddress.Family.TREE, store, OverlayConfig.Forwarding.defaults(), 100,
                    TimeUnit.SECONDS.toNanos(60));

            assertEquals(100, r.rounds(), r.toString());
            // two plain messages a round, and the service's one payload
            assertEquals(100 * 3, r.deliveries(), r.toString());
        }
    }

    @Test
    void shouldSendNothingWhenASocketWarmsUpWithTheStore() throws Exception {
        try (DatagramSocket buddy = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            buddy.setSoTimeout(10_000);
            MessageStore store = store();
            OverlayConfig config = OverlayConfig.defaults("twin-test", NodeType.TREE).withAddress("3")
                    .withInterfaces(List.of(SubstrateAddress.udp("127.0.0.1", 0)))
                    .withBuddies(List.of(SubstrateAddress.udp("127.0.0.1", buddy.getLocalPort())));
            try (OverlaySocket s = OverlaySocket.builder(config).messageStore(store).build()) {
                s.joinAsync(); // warms up (default rounds), then beacons the buddy, which never answers

                MessageStoreMetrics m = store.metrics();
                assertEquals(0, m.node().messages(), m.format());
                assertEquals(0, m.node().created(), m.format());
                assertEquals(0, m.node().totalDrops(), m.format());
                assertEquals(0, s.statistics().forwarding().transmissions());
                assertEquals(0, s.statistics().forwarding().delivered());
                assertNull(s.receive(0, TimeUnit.MILLISECONDS));
                // a marker sent now arrives after anything the warm-up sent; before it only beacons
                byte[] marker = {42};
                try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                    probe.send(new DatagramPacket(marker, 1, buddy.getLocalSocketAddress()));
                }
                for (DatagramPacket p = receive(buddy); p.getLength() != 1; p = receive(buddy)) {
                    byte[] d = p.getData();
                    assertTrue((d[0] & 0xFF) == MessageCodec.MAGIC && d[2] == MessageCodec.KIND_PROTOCOL,
                            "only protocol frames (beacons) leave the node, got a frame of kind " + d[2]);
                }
            }
        }
    }

    private static DatagramPacket receive(DatagramSocket s) throws java.io.IOException {
        DatagramPacket p = new DatagramPacket(new byte[65_536], 65_536);
        s.receive(p);
        return p;
    }

    @Test
    void shouldHaveNoTwinWithoutServices() {
        try (MessageStore store = new MessageStore(MessageStoreConfig.defaults(), Specs.loader(), SpecResolver.defaults())) {
            assertNull(store.scratch());
        }
    }

    @Test
    void shouldSynthesizeOneSampleForEveryMessageEvent() throws Exception {
        try (MessageStore store = store()) {
            ScratchTwin twin = (ScratchTwin) store.scratch();
            try {
                int events = store.service(42).spec().messageEvents().size();
                assertEquals(events, twin.samples(new io.statecast.overlay.address.TreeAddress(1),
                        new io.statecast.overlay.address.TreeAddress(2), 9, 1024).size());
            } finally {
                twin.close();
            }
        }
    }
}
