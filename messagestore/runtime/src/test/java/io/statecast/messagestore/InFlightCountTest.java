package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.flow.SendWindow;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.Origin;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store's count of own messages in flight ({@link SendWindow#inFlight(int)}), on clock
 * threading and a virtual clock: deterministic. The service is the test ACK service with
 * {@code <InFlight>idle waiting</InFlight>}: a message this node (9) sent is in flight until
 * node 1 acknowledges it ({@code done} is not in flight). Node 1 is this node's parent.
 */
class InFlightCountTest {

    private static final ServiceSpec PLAIN = Specs.load("specs/ack-service.scxml");
    private static final ServiceSpec WINDOWED = windowed();

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)).tree(a(1), a(5)));
    private final List<MessageStore> stores = new ArrayList<>();

    private static ServiceSpec windowed() {
        String text = new String(Specs.bytes("specs/ack-service.scxml"), StandardCharsets.UTF_8)
                .replace("<Scope>message</Scope>", "<Scope>message</Scope>\n      <InFlight>idle waiting</InFlight>");
        try {
            return Specs.parse(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private MessageStore store(InstanceLimits limits) throws Exception {
        MessageStore s = new MessageStore(MessageStoreConfig.defaults().withShards(2).withWarmStart(false)
                .withInstances(limits).withThreading(MessageStoreConfig.Threading.CLOCK), Specs.loader(),
                SpecResolver.defaults());
        s.open(overlay);
        stores.add(s);
        return s;
    }

    @AfterEach
    void close() {
        stores.forEach(MessageStore::close);
        assertEquals(0, clock.taskFailures(), () -> String.valueOf(clock.lastFailure()));
    }

    private void settle() {
        clock.advanceBy(Duration.ZERO);
    }

    /** A payload this node's application sends to node 1. */
    private static OverlayMessage own(long id) {
        return Messages.unicastPayload(42, id, 9, 1, 9, "m" + id);
    }

    /** Node 1's ACK of message {@code id}, naming this node (9) as its origin as a reply does. */
    private static OverlayMessage ack(long id) {
        return Origin.attach(Messages.control(42, 2, id, 1, 9, 1), Messages.a(9));
    }

    @Test
    void shouldCountOwnMessagesFromAcceptUntilAcknowledged() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.install(WINDOWED);
        assertTrue(s.sendWindow().counts(42));
        assertTrue(s.receiveMessage(own(1), Arrival.FROM_APPLICATION));
        assertTrue(s.receiveMessage(own(2), Arrival.FROM_APPLICATION));
        assertEquals(2, s.sendWindow().inFlight(42), "counted on accept, before a shard has seen them");
        settle();
        assertEquals(2, s.sendWindow().inFlight(42), "both instances wait in 'waiting'");
        s.receiveMessage(ack(1), Arrival.DELIVERED);
        settle();
        assertEquals(1, s.sendWindow().inFlight(42), "message 1 reached 'done', which is not in flight");
        clock.advanceBy(Duration.ofMillis(700));
        assertEquals(1, s.sendWindow().inFlight(42), "retransmissions stay in 'waiting': still one");
        s.receiveMessage(ack(2), Arrival.DELIVERED);
        settle();
        assertEquals(0, s.sendWindow().inFlight(42));
        clock.advanceBy(Duration.ofMillis(1500));
        assertEquals(0, s.metrics().service(42).counters().liveInstances(), "both lingered and finished");
        assertEquals(0, s.sendWindow().inFlight(42));
    }

    @Test
    void shouldCountTimeoutsOncePerMessageAndCompletions() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.install(WINDOWED);
        s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
        s.receiveMessage(own(2), Arrival.FROM_APPLICATION);
        settle();
        assertEquals(0, s.sendWindow().ownTimeouts(42));
        s.receiveMessage(ack(1), Arrival.DELIVERED);
        settle();
        assertEquals(1, s.sendWindow().ownCompletions(42), "message 1 left the in-flight states");
        clock.advanceBy(Duration.ofMillis(700)); // Retry (200 ms) fires three times for message 2
        assertEquals(1, s.sendWindow().ownTimeouts(42), "one congestion signal per message, however often it retries");
        s.receiveMessage(ack(2), Arrival.DELIVERED);
        settle();
        assertEquals(2, s.sendWindow().ownCompletions(42));
        clock.advanceBy(Duration.ofMillis(1500)); // both linger in done and finish: timers out of flight
        assertEquals(1, s.sendWindow().ownTimeouts(42), "Linger expiring in 'done' is no signal");
        assertEquals(2, s.sendWindow().ownCompletions(42), "ending after leaving the states is not a second completion");
    }

    @Test
    void shouldNotCountMessagesOfOtherNodes() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.install(WINDOWED);
        // a payload from node 1 for this node: the instance goes idle -> done, never own
        s.receiveMessage(Messages.unicastPayload(42, 5, 1, 9, 1, "x"), Arrival.DELIVERED);
        assertEquals(0, s.sendWindow().inFlight(42));
        settle();
        assertEquals(0, s.sendWindow().inFlight(42));
        assertEquals(1, s.metrics().service(42).counters().liveInstances());
    }

    @Test
    void shouldReleaseTheCountWhenTheInstanceIsDisposed() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.install(WINDOWED);
        for (long id = 1; id <= 3; id++) {
            s.receiveMessage(own(id), Arrival.FROM_APPLICATION);
        }
        settle();
        assertEquals(3, s.sendWindow().inFlight(42));
        assertTrue(s.unloadService(42));
        settle();
        assertEquals(0, s.sendWindow().inFlight(42), "unloading disposed the waiting instances");
    }

    @Test
    void shouldGiveTheCountBackWhenTheMessageIsRefused() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS.withMaxLiveInstances(1));
        s.install(WINDOWED);
        s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
        s.receiveMessage(own(2), Arrival.FROM_APPLICATION);
        assertEquals(2, s.sendWindow().inFlight(42));
        settle();
        assertEquals(1, s.metrics().service(42).counters().drops(DropReason.INSTANCE_LIMIT));
        assertEquals(1, s.sendWindow().inFlight(42), "the refused message is no longer counted");
        s.receiveMessage(own(1), Arrival.FROM_APPLICATION); // a duplicate of a live own message
        settle();
        assertEquals(1, s.sendWindow().inFlight(42), "the instance holds one own message; the duplicate adds nothing");
    }

    @Test
    void shouldReportInstanceRoomCountingQueuedMessagesAndOnePerShard() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS.withMaxLiveInstances(4)); // 2 shards
        s.install(WINDOWED);
        assertTrue(s.sendWindow().hasInstanceRoom(), "2 (one per shard) < 4");
        s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
        assertTrue(s.sendWindow().hasInstanceRoom(), "1 queued + 2 < 4");
        s.receiveMessage(ack(7), Arrival.DELIVERED);
        assertFalse(s.sendWindow().hasInstanceRoom(), "a queued control message may start an instance too");
        settle();
        assertEquals(1, s.metrics().node().liveInstances(), "the ACK of an unknown message creates no instance");
        assertEquals(1, s.metrics().node().drops(DropReason.NO_INSTANCE));
        assertTrue(s.sendWindow().hasInstanceRoom(), "1 live + 2 < 4");
        s.receiveMessage(own(2), Arrival.FROM_APPLICATION);
        settle();
        assertFalse(s.sendWindow().hasInstanceRoom(), "2 live + 2");
        assertTrue(s.unloadService(42));
        settle();
        assertTrue(s.sendWindow().hasInstanceRoom(), "0 live + 2 < 4");
    }

    @Test
    void shouldReleaseTheCountWhenTheInstanceTerminatesItself() throws Exception {
        // 'waiting' ends by terminate on the retry timer: the instance ends while in flight
        String text = new String(Specs.bytes("specs/ack-service.scxml"), StandardCharsets.UTF_8)
                .replace("<Scope>message</Scope>", "<Scope>message</Scope>\n      <InFlight>waiting</InFlight>")
                .replace("""
                    <transition event="retry">
                      <action:create name="sendDataMessage"/>""".indent(4).stripTrailing(), """
                    <transition event="retry">
                      <action:create name="terminate"/>
                      <action:execute name="terminate"/>
                      <action:create name="sendDataMessage"/>""".indent(4).stripTrailing());
        ServiceSpec spec = Specs.parse(text);
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.install(spec);
        s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
        settle();
        assertEquals(1, s.sendWindow().inFlight(42));
        clock.advanceBy(Duration.ofMillis(250));
        assertEquals(1, s.metrics().service(42).counters().terminated(), "the retry timer terminated it");
        assertEquals(0, s.sendWindow().inFlight(42));
    }

    @Test
    void shouldNotCountServicesWithoutTheDeclaration() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.install(PLAIN);
        assertFalse(s.sendWindow().counts(42));
        s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
        settle();
        assertEquals(0, s.sendWindow().inFlight(42));
        assertFalse(s.sendWindow().counts(43), "an unknown service is not windowed");
    }
}
