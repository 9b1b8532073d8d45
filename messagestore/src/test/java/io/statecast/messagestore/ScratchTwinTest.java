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
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.ReceivePathWarmUp;
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
            assertTrue(r.transmissions() >= 100 * 2, r.toString());

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
