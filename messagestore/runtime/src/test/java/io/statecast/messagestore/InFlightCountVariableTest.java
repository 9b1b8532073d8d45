package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FieldsExtension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.SendWindowException;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.VirtualTimerService;
import io.statecast.overlay.testkit.RecordingOverlay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code <InFlightCount>}: a flow instance tells the store how many of its node's application
 * messages it holds, and the service's send window counts exactly that many. The spec
 * ({@code specs/held-count.scxml}) keeps one instance per peer whose variable {@code held} grows
 * by one per own message and falls by an ACK's field {@code n}; on clock threading and a virtual
 * clock, so deterministic.
 */
class InFlightCountVariableTest {

    private static final int SID = 43;
    private static final ServiceSpec HELD = Specs.load("specs/held-count.scxml");
    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock,
            new FixedTopology(a(9)).tree(a(1), a(5)));
    private final List<MessageStore> stores = new ArrayList<>();
    private long nextId = 1;

    private MessageStore store() throws Exception {
        return store(InstanceLimits.DEFAULTS);
    }

    private MessageStore store(InstanceLimits limits) throws Exception {
        MessageStore s = new MessageStore(MessageStoreConfig.defaults().withShards(2).withWarmStart(false)
                .withInstances(limits).withThreading(MessageStoreConfig.Threading.CLOCK),
                Specs.loader(), SpecResolver.defaults());
        s.open(overlay);
        stores.add(s);
        s.install(HELD);
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

    private OverlayMessage own(long peer) {
        return Messages.unicastPayload(SID, nextId++, 9, peer, 9, "m");
    }

    /** A control message of {@code type} from {@code peer} to this node (9), with field n when not null. */
    private OverlayMessage from(long peer, int type, Integer n) {
        List<Extension> ext = new ArrayList<>(List.of(new FsmExtension(SID, (byte) type, nextId++)));
        if (n != null) {
            ext.add(new FieldsExtension(MessageFields.of(Map.of("n", new MessageField.Int(n)))));
        }
        return new OverlayMessage(DeliveryMode.UNICAST, 250, a(peer), a(9), a(peer), null, ext);
    }

    @Test
    void shouldCountWhatTheVariableHoldsAndCompleteWhatItReleases() throws Exception {
        MessageStore s = store();
        assertTrue(s.sendWindow().counts(SID), "an <InFlightCount> spec is counted");
        for (int i = 0; i < 3; i++) {
            assertTrue(s.receiveMessage(own(1), Arrival.FROM_APPLICATION));
        }
        assertEquals(3, s.sendWindow().inFlight(SID), "counted on accept");
        settle();
        assertEquals(3, s.sendWindow().inFlight(SID), "one instance holds all three");
        assertEquals(1, s.metrics().service(SID).counters().liveInstances());
        s.receiveMessage(from(1, 2, 2), Arrival.DELIVERED);
        settle();
        assertEquals(1, s.sendWindow().inFlight(SID));
        assertEquals(2, s.sendWindow().ownCompletions(SID));
        s.receiveMessage(from(1, 4, null), Arrival.DELIVERED);
        settle();
        assertEquals(0, s.sendWindow().inFlight(SID), "a value that is not a number counts 0");
        assertEquals(0, s.sendWindow().ownTimeouts(SID), "a count never signals congestion");
    }

    @Test
    void shouldReleaseTheCountWhenTheInstanceEndsOrIsUnloaded() throws Exception {
        MessageStore s = store();
        s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
        s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
        s.receiveMessage(own(5), Arrival.FROM_APPLICATION);
        settle();
        assertEquals(3, s.sendWindow().inFlight(SID));
        s.receiveMessage(from(1, 3, null), Arrival.DELIVERED);
        settle();
        assertEquals(1, s.sendWindow().inFlight(SID), "the ended instance gave back its two");
        assertTrue(s.unloadService(SID));
        settle();
        assertEquals(0, s.sendWindow().inFlight(SID));
    }

    @Test
    void aSendShouldWaitAtTheSpecsLimitBelowTheSocketsWindow() throws Exception {
        MessageStore s = store();
        s.sendWindow().configure(new OverlayConfig.SendWindow(1024, 50, false), new RealTimerService());
        for (int i = 0; i < 4; i++) {
            assertTrue(s.sendWindow().acquire(SID), "room below the limit of 4");
            s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
            s.sendWindow().release(SID);
        }
        settle();
        assertEquals(4, s.sendWindow().inFlight(SID));
        SendWindowException full = assertThrows(SendWindowException.class, () -> s.sendWindow().acquire(SID));
        assertTrue(full.getMessage().contains("4"), full.getMessage());
        s.receiveMessage(from(1, 2, 1), Arrival.DELIVERED);
        settle();
        assertTrue(s.sendWindow().acquire(SID), "an ACK made room");
        s.sendWindow().release(SID);
    }

    @Test
    void messagesWaitingForTheBudgetShouldCountAsInFlight() throws Exception {
        // a burst of 2 primitive calls and 10 per second: of 6 messages sent at once some step,
        // up to 2 (the burst) wait for the budget and the rest are refused (THROTTLED, given back)
        MessageStore s = store(InstanceLimits.DEFAULTS.withPrimitiveRate(2, 10));
        for (int i = 0; i < 6; i++) {
            s.receiveMessage(own(1), Arrival.FROM_APPLICATION);
        }
        settle();
        var counters = s.metrics().service(SID).counters();
        long refused = counters.drops(io.statecast.messagestore.metrics.DropReason.THROTTLED);
        assertTrue(counters.deferredEvents() > 0, "some messages waited for the budget");
        assertEquals(6 - refused, s.sendWindow().inFlight(SID), "held by the variable or waiting; "
                + refused + " refused");
        clock.advanceBy(Duration.ofSeconds(2));
        assertEquals(6 - refused, s.sendWindow().inFlight(SID), "all stepped now, all held by the variable");
        assertEquals(0, s.sendWindow().ownCompletions(SID), "waiting and then held is no completion");
    }

    @Test
    void theLimitShouldFollowTheParameter() throws Exception {
        assertEquals(4, HELD.inFlightLimit());
        assertEquals(9, HELD.withParameters(Map.of("Limit", "9")).inFlightLimit());
        assertEquals(1, HELD.withParameters(Map.of("Limit", "-3")).inFlightLimit(), "at least 1");
        assertEquals(HELD.dataIds().indexOf("held"), HELD.inFlightCountIndex());
    }

    /**
     * Generated sequences of own messages to several peers, ACKs of any size (the variable may go
     * below 0: counted 0), values that are not numbers and instances that end: after every
     * settle the service's count is the sum of what the live instances' variables hold.
     */
    @Test
    void theCountShouldEqualTheSumOfTheLiveInstancesVariablesOnGeneratedSequences() throws Exception {
        SplittableRandom rnd = new SplittableRandom(SEED);
        MessageStore s = store();
        long[] peers = {1, 5, 6, 7};
        // peer -> its instance's variable (NaN once it holds no number); absent: no instance. Any
        // message creates the peer's instance; an END creates it and ends it
        Map<Long, double[]> model = new java.util.HashMap<>();
        long completions = 0;
        for (int step = 0; step < 2_000; step++) {
            long peer = peers[rnd.nextInt(peers.length)];
            int op = rnd.nextInt(100);
            long before = counted(model.get(peer));
            if (op < 50) {
                s.receiveMessage(own(peer), Arrival.FROM_APPLICATION);
                model.computeIfAbsent(peer, k -> new double[1])[0]++;
            } else if (op < 85) {
                int n = rnd.nextInt(4);
                s.receiveMessage(from(peer, 2, n), Arrival.DELIVERED);
                model.computeIfAbsent(peer, k -> new double[1])[0] -= n;
            } else if (op < 92) {
                s.receiveMessage(from(peer, 4, null), Arrival.DELIVERED);
                model.computeIfAbsent(peer, k -> new double[1])[0] = Double.NaN;
            } else {
                s.receiveMessage(from(peer, 3, null), Arrival.DELIVERED);
                model.remove(peer);
            }
            settle();
            completions += Math.max(0, before - counted(model.get(peer)));
            long expected = model.values().stream().mapToLong(InFlightCountVariableTest::counted).sum();
            int at = step;
            assertEquals(expected, s.sendWindow().inFlight(SID), () -> "step " + at + ", seed " + SEED);
            assertEquals(completions, s.sendWindow().ownCompletions(SID), () -> "step " + at + ", seed " + SEED);
        }
        assertFalse(model.isEmpty(), "seed " + SEED);
    }

    /** What an instance whose variable is {@code held[0]} counts: 0 for none, below 0 or not a number. */
    private static long counted(double[] held) {
        return held == null || !(held[0] >= 1) ? 0 : (long) held[0];
    }
}
