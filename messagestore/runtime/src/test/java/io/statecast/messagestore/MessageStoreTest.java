package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.deploy.ServiceLoadException;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.spec.MetaOps;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.Call;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.overlay.testkit.RecordingOverlay.ToApplication;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.forward.ServiceMetaops;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store on clock threading: every shard runs on the virtual clock's thread, so each test is
 * deterministic. This node is 9.
 */
class MessageStoreTest {

    private static final ServiceSpec ACK = Specs.load("specs/ack-service.scxml");
    private static final ServiceSpec LOOP = Specs.load("specs/loop-sender.scxml");
    private static final ServiceSpec FLOW = Specs.load("specs/flow-counter.scxml");

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)).tree(a(1), a(5)));
    private final List<MessageStore> stores = new ArrayList<>();

    private MessageStore store(MessageStoreConfig config) {
        MessageStore s = new MessageStore(config.withThreading(MessageStoreConfig.Threading.CLOCK), Specs.loader(),
                io.statecast.messagestore.deploy.SpecResolver.defaults());
        s.open(overlay);
        stores.add(s);
        return s;
    }

    private MessageStore store() {
        return store(MessageStoreConfig.defaults().withShards(2).withWarmStart(false));
    }

    @AfterEach
    void close() {
        stores.forEach(MessageStore::close);
        assertEquals(0, clock.taskFailures(), () -> String.valueOf(clock.lastFailure()));
    }

    private void settle() {
        clock.advanceBy(Duration.ZERO);
    }

    /** Payload of service 42 from 1 to 9 via 5. */
    private static OverlayMessage data(long id) {
        return Messages.unicastPayload(42, id, 1, 9, 5, "m" + id);
    }

    private static long count(List<Call> calls, Class<?> type) {
        return calls.stream().filter(type::isInstance).count();
    }

    @Test
    void shouldAcknowledgeAndDeliverThroughTheAckService() throws Exception {
        MessageStore s = store();
        s.install(ACK);
        assertTrue(s.receiveMessage(data(1), Arrival.DELIVERED));
        settle();
        List<Call> calls = overlay.drain();
        assertEquals(new SendControl(42, (byte) 2, 1, null, new Route(DeliveryMode.UNICAST, a(5), null, -1)), calls.get(0));
        assertInstanceOf(ToApplication.class, calls.get(1));
        MessageStoreMetrics m = s.metrics();
        CountersSnapshot svc = m.service(42).counters();
        assertEquals(1, svc.messages());
        assertEquals(1, svc.created());
        assertEquals(1, svc.liveInstances());
        assertEquals(1, svc.executed(Primitive.TO_APPLICATION));
        assertEquals(1, m.node().processing().count());
        assertTrue(m.format().contains("service acktest (ServiceID 42"), m.format());
        clock.advanceBy(Duration.ofMillis(1000));
        svc = s.metrics().service(42).counters();
        assertEquals(1, svc.finished(), "Linger over: the final state ends the instance");
        assertEquals(0, svc.liveInstances());
    }

    @Test
    void aMessageQueuedBeforeItsServiceWasUnloadedShouldBeDroppedAsUnloaded() throws Exception {
        MessageStore s = store();
        s.install(ACK);
        assertTrue(s.receiveMessage(data(1), Arrival.DELIVERED)); // queued: the virtual clock has not run the shard
        assertTrue(s.unloadService(42));
        settle();
        assertEquals(List.of(), overlay.drain(), "neither acknowledged nor delivered");
        assertEquals(1, s.metrics().node().drops(DropReason.SERVICE_UNLOADED), s.metrics().format());
    }

    @Test
    void aMessageQueuedBeforeItsServiceWasReloadedShouldRunOnTheNewSpec() throws Exception {
        MessageStore s = store();
        s.install(ACK);
        ServiceRuntime old = s.service(42);
        assertTrue(s.receiveMessage(data(1), Arrival.DELIVERED));
        s.install(ACK.withParameters(Map.of("Linger", "2000"))); // the same scope: the key stays
        ServiceRuntime current = s.service(42);
        settle();
        assertEquals(2, overlay.drain().size(), "acknowledged and delivered");
        assertEquals(0, old.counters().snapshot().messages(), "not on the replaced spec");
        assertEquals(1, current.counters().snapshot().messages(), "on the new one");
        clock.advanceBy(Duration.ofMillis(1000));
        assertEquals(1, current.counters().snapshot().liveInstances(), "the new spec's Linger (2 s) holds it");
        clock.advanceBy(Duration.ofMillis(1000));
        assertEquals(0, current.counters().snapshot().liveInstances());
    }

    @Test
    void shouldHoldMessagesOfAnUnknownServiceUntilItIsLoaded() throws Exception {
        MessageStore s = store();
        List<Integer> asked = new ArrayList<>();
        s.onUnknownService((id, first) -> asked.add(id));
        assertTrue(s.receiveMessage(data(1), Arrival.DELIVERED));
        assertTrue(s.receiveMessage(data(2), Arrival.DELIVERED));
        settle();
        assertEquals(List.of(42), asked, "asked once for the spec");
        assertEquals(2, s.metrics().heldUnknown());
        assertEquals(List.of(), overlay.drain());
        s.loadService(URI.create("classpath:specs/ack-service.scxml"));
        settle();
        assertEquals(0, s.metrics().heldUnknown());
        assertEquals(2, count(overlay.drain(), ToApplication.class), "both held messages processed");
    }

    @Test
    void shouldDropHeldMessagesAfterTheHoldTimeOrBeyondCapacity() {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withUnknownServiceHold(2, Duration.ofMillis(100)));
        assertTrue(s.receiveMessage(data(1), Arrival.DELIVERED));
        clock.advanceBy(Duration.ofMillis(60));
        assertTrue(s.receiveMessage(data(2), Arrival.DELIVERED));
        assertFalse(s.receiveMessage(data(3), Arrival.DELIVERED), "hold queue full");
        clock.advanceBy(Duration.ofMillis(60));
        MessageStoreMetrics m = s.metrics();
        assertEquals(1, m.heldUnknown(), "the first expired, the second has 40 ms left");
        assertEquals(1, m.node().drops(DropReason.UNKNOWN_SERVICE_EXPIRED));
        assertEquals(1, m.node().drops(DropReason.UNKNOWN_SERVICE_QUEUE_FULL));
        clock.advanceBy(Duration.ofMillis(100));
        assertEquals(0, s.metrics().heldUnknown());
        assertEquals(2, s.metrics().node().drops(DropReason.UNKNOWN_SERVICE_EXPIRED));
    }

    @Test
    void shouldBoundLiveInstancesAndCountTheRefused() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(2).withWarmStart(false)
                .withInstances(InstanceLimits.DEFAULTS.withMaxLiveInstances(3)));
        s.install(ACK);
        for (int i = 1; i <= 5; i++) {
            assertTrue(s.receiveMessage(data(i), Arrival.DELIVERED));
        }
        settle();
        CountersSnapshot svc = s.metrics().service(42).counters();
        assertEquals(3, svc.created());
        assertEquals(3, svc.liveInstances());
        assertEquals(3, s.liveInstances(), "the cheap count a sender reads agrees with the metrics");
        assertEquals(2, svc.drops(DropReason.INSTANCE_LIMIT));
        assertEquals(3, count(overlay.drain(), ToApplication.class));
        clock.advanceBy(Duration.ofMillis(1000));
        assertEquals(0, s.metrics().node().liveInstances(), "ended instances give their place back");
        assertEquals(0, s.liveInstances());
        assertTrue(s.receiveMessage(data(6), Arrival.DELIVERED));
        settle();
        assertEquals(4, s.metrics().service(42).counters().created());
    }

    @Test
    void shouldNotStartAnEndedInstanceAgainForALateDuplicate() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(2).withWarmStart(false)
                .withInstances(InstanceLimits.DEFAULTS.withTombstones(100, 5_000)));
        s.install(ACK);
        s.receiveMessage(data(1), Arrival.DELIVERED);
        settle();
        s.receiveMessage(data(1), Arrival.DELIVERED);
        settle();
        List<Call> calls = overlay.drain();
        assertEquals(1, count(calls, ToApplication.class), "a duplicate while lingering is acknowledged, not delivered");
        assertEquals(2, count(calls, SendControl.class));
        clock.advanceBy(Duration.ofMillis(1000));
        assertEquals(1, s.metrics().service(42).counters().finished());
        s.receiveMessage(data(1), Arrival.DELIVERED);
        settle();
        assertEquals(List.of(), overlay.drain(), "ended: the tombstone refuses the duplicate");
        assertEquals(1, s.metrics().service(42).counters().drops(DropReason.TERMINATED_INSTANCE));
        clock.advanceBy(Duration.ofMillis(5_000));
        s.receiveMessage(data(1), Arrival.DELIVERED);
        settle();
        assertEquals(1, count(overlay.drain(), ToApplication.class), "after the tombstone's lifetime it is a new message");
    }

    /**
     * A timer loop (send, set the timer again; two calls a step) is held to the rate: after the
     * burst of 20 its steps wait for the budget, whole, and the loop goes on at 100 calls/s
     * instead of being cut (a throttled setTimer used to end it for good).
     */
    @Test
    void shouldHoldASpecThatLoopsSendingToTheRate() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withInstances(InstanceLimits.DEFAULTS.withPrimitiveRate(20, 100)));
        s.install(LOOP);
        s.receiveMessage(Messages.payload(66, 1, 1, 5, "go"), Arrival.DELIVERED);
        clock.advanceBy(Duration.ofSeconds(1));
        long sent = count(overlay.drain(), SendControl.class);
        CountersSnapshot svc = s.metrics().service(66).counters();
        assertEquals(sent, svc.executed(Primitive.SEND_CONTROL_MESSAGE));
        assertEquals(sent + 1, svc.executed(Primitive.SET_TIMER), "every step made both its calls: " + svc);
        // 20 calls of burst, then 100/s: (20 + 100) / 2 steps, less a step or two of rounding to ms
        assertTrue(sent >= 55 && sent <= 60, "the burst, then one step per 20 ms: " + sent);
        assertTrue(svc.deferredEvents() >= 1, svc.toString());
        clock.advanceBy(Duration.ofSeconds(5));
        long later = count(overlay.drain(), SendControl.class);
        assertTrue(later >= 240 && later <= 251, "the loop goes on at the rate: " + later);
    }

    @Test
    void shouldDropTailWhenAQueueIsFull() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(2).withWarmStart(false).withQueues(3, 2));
        s.install(ACK);
        for (int i = 1; i <= 5; i++) {
            s.receiveMessage(data(i), Arrival.DELIVERED);
        }
        OverlayMessage ack = Messages.control(42, 2, 99, 3, 9, 3);
        for (int i = 0; i < 3; i++) {
            s.receiveMessage(ack, Arrival.DELIVERED);
        }
        MessageStoreMetrics m = s.metrics();
        assertEquals(3, m.dataBacklog());
        assertEquals(2, m.controlBacklog());
        assertEquals(2, m.node().drops(DropReason.DATA_QUEUE_FULL));
        assertEquals(1, m.node().drops(DropReason.CONTROL_QUEUE_FULL));
        settle();
        m = s.metrics();
        assertEquals(0, m.dataBacklog() + m.controlBacklog());
        assertEquals(3, count(overlay.drain(), ToApplication.class));
    }

    @Test
    void shouldAnswerEachServicesMetaopsFromItsSpecAndScope() throws Exception {
        MessageStore s = store();
        ServiceSpec h2hForwarding = Specs.parse(new String(Specs.bytes("specs/blueprint-h2h.scxml"),
                java.nio.charset.StandardCharsets.UTF_8).replace(
                        "<messageStoreWillForwardMessage>false</messageStoreWillForwardMessage>",
                        "<messageStoreWillForwardMessage>true</messageStoreWillForwardMessage>"));
        assertTrue(h2hForwarding.metaops().messageStoreWillForwardMessage(), "the spec under test");
        s.install(ACK);
        s.install(FLOW);
        s.install(h2hForwarding);

        // no metaops section, message scope: the blueprint's defaults, enciphered MessageIDs
        assertEquals(new ServiceMetaops(false, true, false, false), s.metaops(42));
        // flow scope: consecutive MessageIDs
        assertEquals(new ServiceMetaops(false, true, false, true), s.metaops(88));
        assertEquals(new ServiceMetaops(true, true, false, false), s.metaops(1));
        // a service not loaded: the defaults, so its relayed messages still reach the store
        assertEquals(ServiceMetaops.DEFAULTS, s.metaops(4711));
        assertEquals(MetaOps.DEFAULTS.messageStoreWillForwardMessage(), ServiceMetaops.DEFAULTS.forwardsItself());
        assertEquals(MetaOps.DEFAULTS.processIntermediateUnicastMessage(),
                ServiceMetaops.DEFAULTS.processIntermediateUnicast());
        // made once when the service loaded: the per-message query allocates nothing
        assertSame(s.metaops(88), s.metaops(88));

        s.unloadService(88);
        assertEquals(ServiceMetaops.DEFAULTS, s.metaops(88));
    }

    @Test
    void shouldKeyFlowScopeInstancesBySource() throws Exception {
        MessageStore s = store();
        s.install(FLOW);
        s.receiveMessage(Messages.payload(88, 1, 5, 5, "a"), Arrival.DELIVERED);
        s.receiveMessage(Messages.payload(88, 2, 6, 5, "b"), Arrival.DELIVERED);
        s.receiveMessage(Messages.payload(88, 3, 5, 5, "c"), Arrival.DELIVERED);
        settle();
        List<Call> calls = overlay.drain();
        assertEquals(3, count(calls, ToApplication.class), () -> s.metrics().format());
        assertEquals(List.of(new SendControl(88, (byte) 9, 1_000_000, null,
                new Route(DeliveryMode.UNICAST, a(5), null, -1))), calls.stream().filter(SendControl.class::isInstance).toList(),
                "the second message of source 5's flow (a fresh MessageID: flow scope)");
        assertEquals(2, s.metrics().service(88).counters().created());
    }

    /**
     * flow-peer scope: a request 1 -> 9 and the reply 9 -> 1 share an instance on node 9 (the
     * composite event sees both); a third party's message to 9 gets its own.
     */
    @Test
    void shouldKeyFlowPeerInstancesByTheConversation() throws Exception {
        String text = new String(Specs.bytes("specs/flow-counter.scxml"), java.nio.charset.StandardCharsets.UTF_8)
                .replace("<Scope>flow</Scope>", "<Scope>flow-peer</Scope>")
                .replace("<DeliveryMode>multicast</DeliveryMode>", "<DeliveryMode>unicast</DeliveryMode>")
                .replace("<Message><MessageType>0x80</MessageType></Message>", "<Message/>");
        MessageStore s = store();
        s.install(Specs.parse(text));
        s.receiveMessage(Messages.unicastPayload(88, 1, 1, 9, 1, "request"), Arrival.DELIVERED);
        s.receiveMessage(Messages.unicastPayload(88, 2, 6, 9, 6, "other"), Arrival.DELIVERED);
        s.receiveMessage(Messages.unicastPayload(88, 3, 9, 1, 9, "reply"), Arrival.FROM_APPLICATION);
        settle();
        List<Call> calls = overlay.drain();
        assertEquals(2, s.metrics().service(88).counters().created(), () -> s.metrics().format());
        assertEquals(1, count(calls, SendControl.class), "the conversation {1, 9} saw two messages: " + calls);
    }

    /** flow-counter keyed by {@code scopeKey}: expression scope. */
    private static ServiceSpec byExpression(String scopeKey) throws Exception {
        return Specs.parse(new String(Specs.bytes("specs/flow-counter.scxml"), java.nio.charset.StandardCharsets.UTF_8)
                .replace("<Scope>flow</Scope>", "<Scope>expression</Scope><ScopeKey>" + scopeKey + "</ScopeKey>"));
    }

    /** A multicast payload of service 88 from {@code source}, with the field stream when not null. */
    private static OverlayMessage streamed(long id, long source, String stream) {
        List<io.statecast.overlay.message.Extension> ext = new ArrayList<>(List.of(
                new io.statecast.overlay.message.FsmExtension(88, io.statecast.overlay.message.FsmExtension.PAYLOAD_TYPE, id),
                new io.statecast.overlay.message.PayloadExtension(new byte[] {(byte) id})));
        if (stream != null) {
            ext.add(new io.statecast.overlay.message.FieldsExtension(io.statecast.overlay.message.MessageFields.of(
                    Map.of("stream", new io.statecast.overlay.message.MessageField.Text(stream)))));
        }
        return new OverlayMessage(DeliveryMode.MULTICAST, 250, a(source), null, a(source), null, ext);
    }

    /**
     * expression scope: two sources' messages with the same stream field reach one instance (its
     * composite event sees both and answers the second's source), another stream gets its own, and
     * a message without the field belongs to none: dropped and counted. Both on the compiled path
     * and on Saxon, with four shards so that messages keyed on one shard move to another.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"Fields/Field[@name='stream']",
        "Fields/Field[@name='stream'] ! string(.)"})
    void shouldKeyExpressionScopeInstancesByTheKeysValue(String scopeKey) throws Exception {
        ServiceSpec spec = byExpression(scopeKey);
        assertEquals(scopeKey.contains("!"), spec.service().scopeKey().path().compiled() == null, "the path under test");
        MessageStore s = store(MessageStoreConfig.defaults().withShards(4).withWarmStart(false));
        s.install(spec);
        // streams a0..a7 from source 5, then from 6: each pair shares an instance; b-streams do not
        for (int round = 0; round < 8; round++) {
            s.receiveMessage(streamed(100 + round, 5, "a" + round), Arrival.DELIVERED);
            s.receiveMessage(streamed(200 + round, 6, "b" + round), Arrival.DELIVERED);
        }
        settle();
        for (int round = 0; round < 8; round++) {
            s.receiveMessage(streamed(300 + round, 6, "a" + round), Arrival.DELIVERED);
        }
        s.receiveMessage(streamed(400, 5, null), Arrival.DELIVERED);
        settle();
        List<Call> calls = overlay.drain();
        CountersSnapshot svc = s.metrics().service(88).counters();
        assertEquals(16, svc.created(), () -> s.metrics().format());
        assertEquals(24, count(calls, ToApplication.class));
        List<Call> acks = calls.stream().filter(SendControl.class::isInstance).toList();
        assertEquals(8, acks.size(), "one per a-stream, whose instance saw two messages: " + calls);
        for (Call c : acks) {
            assertEquals(a(6), ((SendControl) c).route().destination(), "answered to the second source: " + c);
        }
        assertEquals(1, svc.drops(DropReason.NO_INSTANCE_KEY), "the message without a stream");
        assertEquals(1, s.metrics().node().drops(DropReason.NO_INSTANCE_KEY));
    }

    @Test
    void shouldExpireIdleInstancesAndUnloadServices() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(2).withWarmStart(false)
                .withInstances(InstanceLimits.DEFAULTS.withIdleTimeoutMs(400)));
        s.install(Specs.load("specs/ack-service.scxml").withParameters(java.util.Map.of("Linger", "60000")));
        s.receiveMessage(data(1), Arrival.DELIVERED);
        settle();
        assertEquals(1, s.metrics().node().liveInstances());
        clock.advanceBy(Duration.ofMillis(1000));
        CountersSnapshot svc = s.metrics().service(42).counters();
        assertEquals(1, svc.expired(), "idle for longer than 400 ms");
        assertEquals(0, svc.liveInstances());

        s.receiveMessage(data(2), Arrival.DELIVERED);
        settle();
        assertEquals(1, s.metrics().node().liveInstances());
        assertTrue(s.unloadService(42));
        settle();
        assertEquals(0, s.metrics().node().liveInstances());
        assertEquals(2, s.metrics().node().expired());
        assertTrue(s.receiveMessage(data(3), Arrival.DELIVERED));
        assertEquals(1, s.metrics().heldUnknown(), "unloaded: held like any unknown service");
    }

    @Test
    void shouldExpireOnlyTheInstancesIdleLongEnoughWhateverTheirOrderInTheStore() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withInstances(InstanceLimits.DEFAULTS.withIdleTimeoutMs(400)));
        s.install(Specs.load("specs/ack-service.scxml").withParameters(java.util.Map.of("Linger", "60000")));
        for (int id = 1; id <= 20; id++) {
            s.receiveMessage(data(id), Arrival.DELIVERED);
        }
        settle();
        clock.advanceBy(Duration.ofMillis(300));
        for (int id = 21; id <= 40; id++) {
            s.receiveMessage(data(id), Arrival.DELIVERED);
        }
        settle();
        clock.advanceBy(Duration.ofMillis(250));
        CountersSnapshot svc = s.metrics().service(42).counters();
        assertEquals(20, svc.expired(), "the first twenty are idle for 550 ms, the others for 250 ms");
        assertEquals(20, svc.liveInstances());
        clock.advanceBy(Duration.ofMillis(300));
        svc = s.metrics().service(42).counters();
        assertEquals(40, svc.expired(), "now all are idle for longer than 400 ms");
        assertEquals(0, svc.liveInstances());
    }

    @Test
    void shouldQuarantineAServiceWhoseQueryOverrunsItsLimit() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(1)
                .withSpecLimits(limitMs(5)));
        s.loadService(URI.create("classpath:specs/slow-query.scxml"));
        s.install(ACK);
        s.receiveMessage(Messages.payload(77, 1, 1, 5, "fast"), Arrival.DELIVERED);
        settle();
        assertEquals(0, s.metrics().quarantines(), "a fast evaluation is fine");
        s.receiveMessage(Messages.payload(77, 8, 1, 5, "slow"), Arrival.DELIVERED);
        s.receiveMessage(data(1), Arrival.DELIVERED);
        settle();
        MessageStoreMetrics m = s.metrics();
        assertEquals(1, m.quarantines(), m.format());
        assertEquals(null, m.service(77), "unloaded");
        assertTrue(s.service(42) != null, "other services go on");
        assertFalse(s.receiveMessage(Messages.payload(77, 9, 1, 5, "refused"), Arrival.DELIVERED));
        assertEquals(1, s.metrics().node().drops(DropReason.QUARANTINED));
        ServiceLoadException e = assertThrows(ServiceLoadException.class,
                () -> s.loadService(URI.create("classpath:specs/slow-query.scxml")));
        assertTrue(e.getMessage().contains("quarantined"), e.getMessage());
        assertEquals(3, count(overlay.drain(), ToApplication.class), "two of the slow service, one of the ack service");
    }

    static io.statecast.messagestore.spec.SpecLimits limitMs(long ms) {
        io.statecast.messagestore.spec.SpecLimits d = io.statecast.messagestore.spec.SpecLimits.DEFAULTS;
        io.statecast.messagestore.event.QueryLimits q = d.queries();
        return new io.statecast.messagestore.spec.SpecLimits(d.maxBytes(), d.maxElements(), d.maxDepth(), d.loadTimeout(),
                new io.statecast.messagestore.event.QueryLimits(q.maxQueryChars(), q.maxNestingDepth(), q.maxRangeSize(),
                        q.compileTimeout(), Duration.ofMillis(ms), q.workerStackBytes()));
    }

    @Test
    void shouldWarmStartWhenLoading() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(1));
        s.loadService(URI.create("classpath:specs/ack-service.scxml"));
        assertNotNull(s.service(42));
        CountersSnapshot svc = s.metrics().service(42).counters();
        assertEquals(0, svc.created(), "the warm start's throw-away instances count elsewhere");
        assertEquals(List.of(), overlay.drain(), "and act on nothing");
    }

    @Test
    void shouldRefuseASpecWhoseWarmStartDoesNotFinish() throws Exception {
        MessageStore s = store(MessageStoreConfig.defaults().withShards(1).withWarmStart(true));
        String spec = new String(Specs.bytes("specs/slow-query.scxml"), java.nio.charset.StandardCharsets.UTF_8)
                .replace("if ($id = 7)", "if (true())").replace("<ServiceID>77<", "<ServiceID>78<");
        ServiceSpec slowForAll = Specs.parse(spec);
        MessageStore withTimeout = new MessageStore(new MessageStoreConfig(1, MessageStoreConfig.Threading.CLOCK, 10, 10,
                InstanceLimits.DEFAULTS, 10, Duration.ofSeconds(1), io.statecast.messagestore.spec.SpecLimits.DEFAULTS, true,
                Duration.ofMillis(100)), Specs.loader(), io.statecast.messagestore.deploy.SpecResolver.defaults());
        stores.add(withTimeout);
        ServiceLoadException e = assertThrows(ServiceLoadException.class, () -> withTimeout.install(slowForAll));
        assertTrue(e.getMessage().contains("used more than 100 ms of CPU time"), e.getMessage());
        assertEquals(null, withTimeout.service(78));
        assertNotNull(s);
    }

    @Test
    void shouldRefuseUnreadableSources() {
        MessageStore s = store();
        ServiceLoadException e = assertThrows(ServiceLoadException.class,
                () -> s.loadService(URI.create("classpath:specs/no-such.scxml")));
        assertTrue(e.getMessage().contains("no such resource"), e.getMessage());
        e = assertThrows(ServiceLoadException.class, () -> s.loadService(URI.create("ftp://127.0.0.1/x.scxml")));
        assertTrue(e.getMessage().contains("no spec source for scheme 'ftp'"), e.getMessage());
        e = assertThrows(ServiceLoadException.class,
                () -> s.loadService(URI.create("classpath:hostile/billion-laughs.scxml")));
        assertTrue(e.getMessage().contains("billion-laughs"), e.getMessage());
    }

    @Test
    void shouldLoadAServiceOverHttp() throws Exception {
        byte[] doc;
        try (var in = MessageStoreTest.class.getClassLoader().getResourceAsStream("specs/ack-service.scxml")) {
            doc = in.readAllBytes();
        }
        com.sun.net.httpserver.HttpServer server =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/services/42", ex -> {
            ex.sendResponseHeaders(200, doc.length);
            try (var out = ex.getResponseBody()) {
                out.write(doc);
            }
        });
        server.start();
        try {
            MessageStore s = store();
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/services/42");
            assertEquals(42, s.loadService(uri).service().serviceId());
            assertTrue(s.receiveMessage(data(1), Arrival.DELIVERED));
            settle();
            assertEquals(1, count(overlay.drain(), ToApplication.class), "the downloaded service runs");
            ServiceLoadException e = assertThrows(ServiceLoadException.class,
                    () -> s.loadService(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/services/7")));
            assertTrue(e.getMessage().contains("answered HTTP status 404"), e.getMessage());
        } finally {
            server.stop(0);
        }
    }
}
