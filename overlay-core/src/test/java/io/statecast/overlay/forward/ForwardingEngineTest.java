package io.statecast.overlay.forward;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.substrate.TimerService;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.testkit.RecordingStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The forwarding engine against a hand-built topology: node 5 with parent 9 toward root 9,
 * children 2 and 3 toward itself and toward 9, and neighbour 7.
 */
class ForwardingEngineTest {

    private static final TreeAddress SELF = new TreeAddress(5);
    private static final TreeAddress N2 = new TreeAddress(2);
    private static final TreeAddress N3 = new TreeAddress(3);
    private static final TreeAddress N7 = new TreeAddress(7);
    private static final TreeAddress N9 = new TreeAddress(9);
    private static final TreeAddress FAR = new TreeAddress(42);
    private static final byte[] DATA = {1, 2, 3};

    private final FixedTopology topology = new FixedTopology(SELF)
            .neighbour(N2).neighbour(N3).neighbour(N7).neighbour(N9)
            .tree(N9, N9, N2, N3, N7)          // root 9: my parent is 9, children 2, 3, 7
            .tree(SELF, null, N2, N3, N7, N9)  // root me: everyone is a child
            .tree(N2, N2, N3, N7, N9)          // root 2: parent 2
            .tree(N7, N7, N2, N3, N9)
            .tree(FAR, N9);                    // far node: up through 9
    private final List<Sent> sent = new ArrayList<>();
    private final List<OverlayMessage> delivered = new ArrayList<>();
    private boolean transmitterAccepts = true;
    private boolean applicationAccepts = true;
    private final ForwardingEngine engine = new ForwardingEngine(SELF, () -> topology,
            (to, m) -> {
                sent.add(new Sent(to, m));
                return transmitterAccepts;
            },
            m -> {
                if (applicationAccepts) {
                    delivered.add(m);
                }
                return applicationAccepts;
            },
            new NoTimers(), new MessageIds(new java.util.SplittableRandom(1000)), new ForwardingEngine.Settings(255, 16));

    record Sent(SubstrateAddress to, OverlayMessage message) {
    }

    private static OverlayMessage message(DeliveryMode mode, int hops, LogicalAddress source, LogicalAddress dest,
                                          LogicalAddress prev, Extension... ext) {
        List<Extension> list = new ArrayList<>(List.of(ext));
        list.add(new PayloadExtension(DATA));
        return new OverlayMessage(mode, hops, source, dest, prev, null, list);
    }

    private Set<SubstrateAddress> destinations() {
        Set<SubstrateAddress> s = new HashSet<>();
        sent.forEach(x -> s.add(x.to()));
        return s;
    }

    private static Set<SubstrateAddress> at(LogicalAddress... a) {
        Set<SubstrateAddress> s = new HashSet<>();
        for (LogicalAddress x : a) {
            s.add(FixedTopology.addressOf(x));
        }
        return s;
    }

    private long drops(DropCause c) {
        return engine.statistics().drops(c);
    }

    // -------------------------------------------------------------------------------- multicast

    @Test
    void shouldDeliverMulticastFromParentAndForwardToChildrenWithRewrittenPreviousHop() {
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, N9), null);

        assertEquals(1, delivered.size());
        assertEquals(at(N2, N3, N7), destinations());
        for (Sent s : sent) {
            assertEquals(SELF, s.message().previousHop());
            assertEquals(9, s.message().hopLimit());
            assertEquals(N9, s.message().source());
        }
        assertEquals(3, engine.statistics().transmissions());
        assertEquals(0, engine.statistics().totalDrops());
    }

    @Test
    void shouldDropMulticastWhosePreviousHopIsNotMyParentTowardTheSource() {
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, N7), null);

        assertTrue(delivered.isEmpty());
        assertTrue(sent.isEmpty());
        assertEquals(1, drops(DropCause.PREVIOUS_HOP_NOT_PARENT));
    }

    @Test
    void shouldUseExplicitRootForMulticastTreeAndPreviousHopCheck() {
        // source 9, but travelling on the tree rooted at 2: parent toward 2 is 2, children 3, 7, 9
        OverlayMessage m = new OverlayMessage(DeliveryMode.MULTICAST, 10, N9, null, N2, N2, List.of(new PayloadExtension(DATA)));
        engine.onReceive(m, null);
        assertEquals(at(N3, N7, N9), destinations());

        sent.clear();
        OverlayMessage wrong = new OverlayMessage(DeliveryMode.MULTICAST, 10, N9, null, N9, N2, List.of(new PayloadExtension(DATA)));
        engine.onReceive(wrong, null);
        assertTrue(sent.isEmpty());
        assertEquals(1, drops(DropCause.PREVIOUS_HOP_NOT_PARENT));
    }

    @Test
    void shouldDeliverButNotForwardMulticastWithHopLimitZero() {
        engine.onReceive(message(DeliveryMode.MULTICAST, 0, N9, null, N9), null);

        assertEquals(1, delivered.size());
        assertTrue(sent.isEmpty());
        assertEquals(1, drops(DropCause.HOP_LIMIT));
    }

    @Test
    void shouldNotCountHopLimitForLeafThatHasNowhereToForward() {
        FixedTopology leaf = new FixedTopology(SELF).neighbour(N9).tree(N9, N9);
        ForwardingEngine e = new ForwardingEngine(SELF, () -> leaf, (to, m) -> true, m -> true, new NoTimers(),
                new MessageIds(new java.util.SplittableRandom(0)), new ForwardingEngine.Settings(255, 16));
        e.onReceive(message(DeliveryMode.MULTICAST, 0, N9, null, N9), null);
        assertEquals(0, e.statistics().totalDrops());
        assertEquals(1, e.statistics().delivered());
    }

    @Test
    void shouldDropEchoOfOwnMessage() {
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, SELF, null, N9), null);
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, SELF), null);
        assertEquals(2, drops(DropCause.OWN_MESSAGE));
        assertTrue(delivered.isEmpty());
    }

    @Test
    void shouldDropMessageOfAnotherAddressFamily() {
        DtAddress dt = new DtAddress(1, 1);
        engine.onReceive(new OverlayMessage(DeliveryMode.MULTICAST, 10, dt, null, dt, null, List.of()), null);
        assertEquals(1, drops(DropCause.WRONG_FAMILY));
    }

    // -------------------------------------------------------------------------------- unicast

    @Test
    void shouldDeliverUnicastForMeWithoutForwarding() {
        engine.onReceive(message(DeliveryMode.UNICAST, 10, FAR, SELF, N9), null);
        assertEquals(1, delivered.size());
        assertTrue(sent.isEmpty());
    }

    @Test
    void shouldForwardTransitUnicastToNextHopWithoutDelivering() {
        engine.onReceive(message(DeliveryMode.UNICAST, 10, N2, FAR, N2), null);
        assertTrue(delivered.isEmpty());
        assertEquals(at(N9), destinations());
        assertEquals(SELF, sent.get(0).message().previousHop());
        assertEquals(9, sent.get(0).message().hopLimit());
    }

    @Test
    void shouldDropUnicastFromNonNeighbour() {
        engine.onReceive(message(DeliveryMode.UNICAST, 10, FAR, SELF, FAR), null);
        assertTrue(delivered.isEmpty());
        assertEquals(1, drops(DropCause.PREVIOUS_HOP_NOT_NEIGHBOUR));
    }

    @Test
    void shouldDropTransitUnicastWithHopLimitZero() {
        engine.onReceive(message(DeliveryMode.UNICAST, 0, N2, FAR, N2), null);
        assertTrue(sent.isEmpty());
        assertEquals(1, drops(DropCause.HOP_LIMIT));
    }

    @Test
    void shouldDropUnicastWithoutRoute() {
        engine.onReceive(message(DeliveryMode.UNICAST, 10, N2, new TreeAddress(77), N2), null);
        assertTrue(sent.isEmpty());
        assertEquals(1, drops(DropCause.NO_ROUTE));
    }

    @Test
    void shouldDeliverOwnUnicastToSelfLocally() {
        engine.send(message(DeliveryMode.UNICAST, 10, SELF, SELF, SELF));
        assertEquals(1, delivered.size());
        assertTrue(sent.isEmpty());
    }

    // -------------------------------------------------------------------------------- flood

    @Test
    void shouldFloodOnceToEveryNeighbourButPreviousHopAndDropDuplicates() {
        OverlayMessage m = FloodId.attach(message(DeliveryMode.FLOOD, 10, FAR, null, N9), 77);
        engine.onReceive(m, null);
        assertEquals(1, delivered.size());
        assertEquals(at(N2, N3, N7), destinations());

        sent.clear();
        engine.onReceive(m.forwardedBy(N7), null); // the same flood by another path
        assertEquals(1, delivered.size());
        assertTrue(sent.isEmpty());
        assertEquals(1, drops(DropCause.DUPLICATE));

        engine.onReceive(FloodId.attach(message(DeliveryMode.FLOOD, 10, FAR, null, N9), 78), null); // a new flood
        assertEquals(2, delivered.size());
    }

    @Test
    void shouldTellFloodsOfDifferentSourcesApartDespiteEqualSequence() {
        engine.onReceive(FloodId.attach(message(DeliveryMode.FLOOD, 10, FAR, null, N9), 1), null);
        engine.onReceive(FloodId.attach(message(DeliveryMode.FLOOD, 10, N7, null, N7), 1), null);
        assertEquals(2, delivered.size());
        assertEquals(0, drops(DropCause.DUPLICATE));
    }

    @Test
    void shouldDropFloodWithoutAnyIdentifier() {
        engine.onReceive(message(DeliveryMode.FLOOD, 10, FAR, null, N9), null);
        assertTrue(delivered.isEmpty());
        assertEquals(1, drops(DropCause.NO_FLOOD_ID));
    }

    @Test
    void shouldDeduplicateFloodWithoutFloodIdByItsFsmExtension() {
        FsmExtension fsm = new FsmExtension(4, FsmExtension.PAYLOAD_TYPE, 123);
        engine.onReceive(message(DeliveryMode.FLOOD, 10, FAR, null, N9, fsm), null);
        engine.onReceive(message(DeliveryMode.FLOOD, 10, FAR, null, N7, fsm), null);
        assertEquals(1, delivered.size());
        assertEquals(1, drops(DropCause.DUPLICATE));
        // another message type of the same message is another flood
        engine.onReceive(message(DeliveryMode.FLOOD, 10, FAR, null, N7, new FsmExtension(4, (byte) 2, 123)), null);
        assertEquals(2, delivered.size());
    }

    @Test
    void shouldNameOwnFloodAndDropItsEcho() {
        engine.send(message(DeliveryMode.FLOOD, 10, SELF, null, SELF));
        assertEquals(at(N2, N3, N7, N9), destinations());
        OverlayMessage out = sent.get(0).message();
        assertTrue(FloodId.present(out));
        engine.onReceive(out.forwardedBy(N2), null);
        assertEquals(1, drops(DropCause.OWN_MESSAGE));
        assertTrue(delivered.isEmpty());
    }

    @Test
    void shouldForgetOldestFloodWhenCacheIsFull() {
        OverlayMessage first = FloodId.attach(message(DeliveryMode.FLOOD, 10, FAR, null, N9), 0);
        engine.onReceive(first, null);
        for (int i = 1; i <= 16; i++) {
            engine.onReceive(FloodId.attach(message(DeliveryMode.FLOOD, 10, FAR, null, N9), i), null);
        }
        engine.onReceive(first, null); // evicted: seen as new again; the hop limit still bounds it
        assertEquals(18, delivered.size());
    }

    // -------------------------------------------------------------------------------- sends and drops

    @Test
    void shouldMulticastOwnMessageToAllChildrenOfOwnTree() {
        int n = engine.send(message(DeliveryMode.MULTICAST, 10, SELF, null, SELF));
        assertEquals(4, n);
        assertEquals(at(N2, N3, N7, N9), destinations());
        assertTrue(delivered.isEmpty(), "a sender does not receive its own multicast");
        assertEquals(1, engine.statistics().originated());
    }

    @Test
    void shouldRefuseToSendMessageOfAnotherSource() {
        assertThrows(IllegalArgumentException.class, () -> engine.send(message(DeliveryMode.MULTICAST, 10, N9, null, SELF)));
    }

    @Test
    void shouldCountNextHopWithoutSubstrateAddress() {
        FixedTopology t = new FixedTopology(SELF).neighbour(N9, null).tree(FAR, N9);
        ForwardingEngine e = new ForwardingEngine(SELF, () -> t, (to, m) -> true, m -> true, new NoTimers(),
                new MessageIds(new java.util.SplittableRandom(0)), new ForwardingEngine.Settings(255, 16));
        assertEquals(0, e.send(message(DeliveryMode.UNICAST, 10, SELF, FAR, SELF)));
        assertEquals(1, e.statistics().drops(DropCause.NO_SUBSTRATE_ADDRESS));
    }

    @Test
    void shouldCountCopiesTheSubstrateRefuses() {
        transmitterAccepts = false;
        engine.send(message(DeliveryMode.MULTICAST, 10, SELF, null, SELF));
        assertEquals(4, drops(DropCause.SEND_FAILED));
        assertEquals(0, engine.statistics().transmissions());
    }

    @Test
    void shouldCountDeliveriesTheApplicationQueueRefusesAndStillForward() {
        applicationAccepts = false;
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, N9), null);
        assertEquals(1, drops(DropCause.APPLICATION_QUEUE_FULL));
        assertEquals(3, sent.size());
    }

    // -------------------------------------------------------------------------------- MessageStore port

    private static final int SERVICE = 7;
    private static final FsmExtension FSM = new FsmExtension(SERVICE, FsmExtension.PAYLOAD_TYPE, 99);

    /** A store for {@link #SERVICE} that forwards its messages itself or not, and takes transit unicasts or not. */
    private static RecordingStore store(boolean forwards, boolean intermediate) {
        return new RecordingStore(SERVICE).forwardsItself(forwards).processesIntermediateUnicast(intermediate);
    }

    @Test
    void shouldDeliverAndForwardServiceMessagesLikeAnyOtherWithoutStore() {
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, N9, FSM), null);
        assertEquals(1, delivered.size());
        assertEquals(3, sent.size());
        engine.onReceive(message(DeliveryMode.UNICAST, 10, N2, FAR, N2, FSM), null);
        assertEquals(4, sent.size());
    }

    @Test
    void shouldHandServiceMessageToStoreAndForwardAtOnceWhenStoreDoesNotForward() {
        RecordingStore store = store(false, false);
        engine.installStore(store);
        assertNotNull(store.context());

        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, N9, FSM), null);
        assertEquals(List.of(Arrival.DELIVERED), store.arrivals());
        assertTrue(delivered.isEmpty(), "with a store the application sees service messages only through it");
        assertEquals(at(N2, N3, N7), destinations());
        assertEquals(1, engine.statistics().toStore());
    }

    @Test
    void shouldNotForwardServiceMessageWhenStoreForwardsItself() {
        RecordingStore store = store(true, false);
        engine.installStore(store);
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, N9, FSM), null);
        engine.onReceive(FloodId.attach(message(DeliveryMode.FLOOD, 10, N9, null, N9, FSM), 3), null);
        assertEquals(2, store.messages().size());
        assertTrue(sent.isEmpty());
        assertTrue(delivered.isEmpty());
    }

    @Test
    void shouldStillDeliverMessagesWithoutServiceDirectlyWhenStoreInstalled() {
        engine.installStore(store(true, true));
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, N9), null);
        assertEquals(1, delivered.size());
        assertEquals(3, sent.size());
    }

    @Test
    void shouldHandTheStoresUnicastToItsOwnNodeBackOnlyWhenTheServiceAsks() {
        RecordingStore store = store(true, false);
        engine.installStore(store);
        assertEquals(0, store.context().sendDataMessage(SERVICE, 5, DATA, Route.unicast(SELF)),
                "by default a unicast to oneself goes nowhere");
        assertTrue(store.messages().isEmpty());
        store.receivesOwnUnicast(true);
        assertEquals(1, store.context().sendDataMessage(SERVICE, 6, DATA, Route.unicast(SELF)));
        assertEquals(1, store.context().sendDataMessage(SERVICE, 7, DATA, Route.unicast(N2)));
        assertEquals(List.of(Arrival.DELIVERED), store.arrivals(), "only the copy to itself comes back");
        assertEquals(SELF, store.messages().get(0).source());
        assertEquals(6, store.messages().get(0).fsm().messageId());
        assertEquals(at(N2), destinations(), "the other one went out");
        assertTrue(delivered.isEmpty(), "not to the application: the store decides");
    }

    /**
     * The store's engine sends every message through the overloads that name an origin: those too
     * must hand a unicast to this node back to a service that receives its own (they sent it into
     * the routing, which drops a unicast to oneself, so a group member never held its own messages).
     */
    @Test
    void shouldHandTheStoresUnicastToItsOwnNodeBackAlsoWhenItNamesAnOrigin() {
        RecordingStore store = store(true, false);
        store.receivesOwnUnicast(true);
        engine.installStore(store);
        assertEquals(1, store.context().sendDataMessage(SERVICE, 6, null, MessageFields.EMPTY, DATA, Route.unicast(SELF)));
        assertEquals(1, store.context().sendControlMessage(SERVICE, (byte) 2, 7, null, MessageFields.EMPTY, null,
                Route.unicast(SELF)));
        assertEquals(1, store.context().sendDataMessage(SERVICE, 8, null, MessageFields.EMPTY, DATA, Route.unicast(N2)));
        assertEquals(List.of(Arrival.DELIVERED, Arrival.DELIVERED), store.arrivals(), "only the copies to itself come back");
        assertEquals(List.of(6L, 7L), store.messages().stream().map(m -> m.fsm().messageId()).toList());
        assertEquals(at(N2), destinations(), "the other one went out");
        assertTrue(delivered.isEmpty(), "not to the application: the store decides");
    }

    @Test
    void shouldDeliverUnicastForMeThroughStore() {
        RecordingStore store = store(false, false);
        engine.installStore(store);
        engine.onReceive(message(DeliveryMode.UNICAST, 10, FAR, SELF, N9, FSM), null);
        assertEquals(List.of(Arrival.DELIVERED), store.arrivals());
        assertTrue(delivered.isEmpty());
        assertTrue(sent.isEmpty());
    }

    @Test
    void shouldForwardIntermediateUnicastWithoutStoreWhenServiceSkipsIntermediates() {
        RecordingStore store = store(true, false); // forwards itself, but never sees transit
        engine.installStore(store);
        engine.onReceive(message(DeliveryMode.UNICAST, 10, N2, FAR, N2, FSM), null);
        assertTrue(store.messages().isEmpty());
        assertEquals(at(N9), destinations());
    }

    @Test
    void shouldHandIntermediateUnicastToStoreAndForwardWhenStoreDoesNotForward() {
        RecordingStore store = store(false, true);
        engine.installStore(store);
        engine.onReceive(message(DeliveryMode.UNICAST, 10, N2, FAR, N2, FSM), null);
        assertEquals(List.of(Arrival.TRANSIT), store.arrivals());
        assertEquals(at(N9), destinations());
        assertTrue(delivered.isEmpty());
    }

    @Test
    void shouldLeaveIntermediateUnicastToStoreWhenItForwardsItself() {
        RecordingStore store = store(true, true);
        engine.installStore(store);
        engine.onReceive(message(DeliveryMode.UNICAST, 10, N2, FAR, N2, FSM), null);
        assertEquals(List.of(Arrival.TRANSIT), store.arrivals());
        assertTrue(sent.isEmpty());
    }

    @Test
    void shouldHandApplicationSendsToStoreAndForwardUnlessStoreForwards() {
        RecordingStore store = store(false, false);
        engine.installStore(store);
        assertEquals(4, engine.send(message(DeliveryMode.MULTICAST, 10, SELF, null, SELF, FSM)));
        assertEquals(List.of(Arrival.FROM_APPLICATION), store.arrivals());

        ForwardingEngine other = new ForwardingEngine(SELF, () -> topology, (to, m) -> true, m -> true, new NoTimers(),
                new MessageIds(new java.util.SplittableRandom(0)), new ForwardingEngine.Settings(255, 16));
        RecordingStore forwarding = store(true, false);
        other.installStore(forwarding);
        assertEquals(0, other.send(message(DeliveryMode.MULTICAST, 10, SELF, null, SELF, FSM)));
        assertEquals(List.of(Arrival.FROM_APPLICATION), forwarding.arrivals());
    }

    @Test
    void shouldCountMessagesTheStoreRefusesAndNotDeliverThem() {
        RecordingStore store = store(false, false);
        store.accepts(false);
        engine.installStore(store);
        engine.onReceive(message(DeliveryMode.MULTICAST, 10, N9, null, N9, FSM), null);
        assertEquals(1, drops(DropCause.STORE_REJECTED));
        assertTrue(delivered.isEmpty());
        assertEquals(3, sent.size(), "forwarding does not depend on the store's queue");
    }

    @Test
    void shouldRefuseSecondStore() {
        engine.installStore(store(false, false));
        assertThrows(IllegalStateException.class, () -> engine.installStore(store(false, false)));
    }

    // -------------------------------------------------------------------------------- the context

    @Test
    void shouldOfferTheStoreTheRegistryItIsInstalledWith() {
        assertEquals(Optional.empty(), engine.context().meterRegistry(), "no store, no registry");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RecordingStore store = store(false, false);
        engine.installStore(store, null, registry);
        assertSame(registry, store.context().meterRegistry().orElseThrow(),
                "the store binds its meters in open, from its context");
    }

    @Test
    void shouldSendDataMessageFromThisNodeWithoutHandingItBackToStore() {
        RecordingStore store = store(false, false);
        engine.installStore(store);
        OverlayContext c = store.context();
        long id = c.newMessageId();
        assertEquals(1, c.sendDataMessage(SERVICE, id, DATA, Route.unicast(N9)));
        OverlayMessage out = sent.get(0).message();
        assertEquals(SELF, out.source());
        assertEquals(SELF, out.previousHop());
        assertEquals(254, out.hopLimit());
        assertEquals(new FsmExtension(SERVICE, FsmExtension.PAYLOAD_TYPE, id), out.fsm());
        assertArrayEquals(DATA, out.payload());
        assertTrue(store.messages().isEmpty());
    }

    @Test
    void shouldSendTheStoresFieldsInAFieldsExtensionAndNoneWhenEmpty() {
        RecordingStore store = store(false, false);
        engine.installStore(store);
        MessageFields fields = MessageFields.of(java.util.Map.of("seq", new MessageField.Int(7),
                "sack", MessageField.Ranges.parse("1-3 5")));
        assertEquals(1, store.context().sendDataMessage(SERVICE, 1, fields, DATA, Route.unicast(N9)));
        assertEquals(1, store.context().sendControlMessage(SERVICE, (byte) 2, 1, fields, null, Route.unicast(N9)));
        assertEquals(1, store.context().sendControlMessage(SERVICE, (byte) 2, 1, MessageFields.EMPTY, null, Route.unicast(N9)));
        assertEquals(fields, sent.get(0).message().fields());
        assertArrayEquals(DATA, sent.get(0).message().payload());
        assertEquals(fields, sent.get(1).message().fields());
        assertNull(sent.get(1).message().payload());
        assertEquals(1, sent.get(2).message().extensions().size(), "no fields, no fields extension");
    }

    @Test
    void shouldSendControlMessageOnExplicitRootWithHopLimit() {
        RecordingStore store = store(false, false);
        engine.installStore(store);
        // to my children in the tree rooted at 9 only: root 9, one hop
        int n = store.context().sendControlMessage(SERVICE, (byte) 3, 99, null, Route.multicast().withRoot(N9).withHopLimit(1));
        assertEquals(3, n);
        assertEquals(at(N2, N3, N7), destinations());
        OverlayMessage out = sent.get(0).message();
        assertEquals(0, out.hopLimit());
        assertNull(out.payload());
        assertEquals((byte) 3, out.fsm().messageType());
        assertEquals(N9, out.root());
    }

    @Test
    void shouldForwardStoredMessageWithRewrittenPreviousHopAndDeliverToApplication() {
        RecordingStore store = store(true, false);
        engine.installStore(store);
        OverlayMessage m = message(DeliveryMode.MULTICAST, 10, N9, null, N9, FSM);
        engine.onReceive(m, null);
        assertTrue(sent.isEmpty());
        assertEquals(3, store.context().forwardMessage(store.messages().get(0)));
        assertEquals(SELF, sent.get(0).message().previousHop());
        assertTrue(store.context().toApplication(store.messages().get(0)));
        assertEquals(1, delivered.size());
    }

    @Test
    void shouldGenerateDistinctMessageIds() {
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            assertTrue(ids.add(engine.newMessageId()));
        }
        assertFalse(ids.isEmpty());
    }

    /** The engine only passes its timer service on; these tests never schedule. */
    static final class NoTimers implements TimerService {
        @Override
        public long nanoTime() {
            return 0;
        }

        @Override
        public Timer schedule(long delay, TimeUnit unit, Runnable task) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void execute(Runnable task) {
            task.run();
        }
    }
}
