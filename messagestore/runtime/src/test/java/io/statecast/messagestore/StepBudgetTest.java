package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.substrate.VirtualTimerService;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.Call;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.overlay.testkit.RecordingOverlay.ToApplication;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The primitive budget is checked before a step, never inside one: driven past it, a chart whose
 * steps assign and then make several calls never runs a step half (the counts its calls carry have
 * no gap), messages from the network are refused before the chart sees them and counted
 * ({@code THROTTLED}), timer expiries and the application's messages wait and are stepped later,
 * and a composite event's calls run with the step that triggered it.
 */
class StepBudgetTest {

    private static final ServiceSpec STEPS = Specs.load("specs/budget-steps.scxml");
    private static final ServiceSpec FLOW = Specs.load("specs/flow-counter.scxml");

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)).tree(a(1), a(5)));
    private final List<MessageStore> stores = new ArrayList<>();

    private MessageStore store(int burst, double perSecond) {
        MessageStore s = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withInstances(InstanceLimits.DEFAULTS.withPrimitiveRate(burst, perSecond))
                .withThreading(MessageStoreConfig.Threading.CLOCK), Specs.loader(),
                io.statecast.messagestore.deploy.SpecResolver.defaults());
        s.open(overlay);
        stores.add(s);
        return s;
    }

    @AfterEach
    void close() {
        stores.forEach(MessageStore::close);
        assertEquals(0, clock.taskFailures(), () -> String.valueOf(clock.lastFailure()));
    }

    /** The counts (field n) of the control messages of {@code type} sent, in order. */
    private static List<Long> counts(List<Call> calls, int type) {
        List<Long> out = new ArrayList<>();
        for (Call c : calls) {
            if (c instanceof SendControl s && s.messageType() == (byte) type) {
                out.add(((MessageField.Int) s.fields().get("n")).value());
            }
        }
        return out;
    }

    private static List<Long> oneTo(long n) {
        return LongStream.rangeClosed(1, n).boxed().toList();
    }

    @Test
    void noStepShouldRunHalfUnderABudgetFarTooSmall() throws Exception {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        String why = "seed " + seed + " (-Dstatecast.seed=" + seed + ")";
        Random random = new Random(seed);
        MessageStore s = store(10, 200); // a message step makes 3 calls, a tick 2 (200/s over the 10 ms ticks)
        s.install(STEPS);
        int sent = 400;
        for (int i = 1; i <= sent; i++) {
            s.receiveMessage(Messages.payload(93, i, 1, 5, "m" + i), Arrival.DELIVERED);
            if (random.nextInt(4) == 0) {
                clock.advanceBy(Duration.ofMillis(random.nextInt(3)));
            }
        }
        clock.advanceBy(Duration.ofSeconds(2));
        List<Call> calls = overlay.drain();
        CountersSnapshot svc = s.metrics().service(93).counters();
        long delivered = calls.stream().filter(c -> c instanceof ToApplication).count();
        long refused = svc.drops(DropReason.THROTTLED);
        assertTrue(refused > 0 && delivered > 0, why + ": the budget refused some: " + svc);
        assertEquals(sent, delivered + refused, why + ": every message was stepped or refused before the step");
        assertEquals(refused, s.metrics().node().drops(DropReason.THROTTLED), why);
        assertEquals(oneTo(delivered), counts(calls, 9), why + ": each delivery went with its count, none missing");
        assertEquals(delivered, svc.executed(Primitive.FORGET_EVENTS), why);
        List<Long> ticks = counts(calls, 7);
        assertEquals(oneTo(ticks.size()), ticks, why + ": each tick reported its count, none missing");
        // the tick set itself again at every step: none lost, however often it waited for the budget
        assertEquals(ticks.size() + 1, svc.executed(Primitive.SET_TIMER), why);
        assertTrue(svc.deferredEvents() > 0, why + ": some ticks waited for the budget: " + svc);
        assertTrue(ticks.size() >= 150, why + ": ~10 ms apart over 2 s, some later: " + ticks.size());
        assertEquals(0, svc.actions(ActionOutcome.FAILED) + svc.actions(ActionOutcome.DISCARDED), why + ": " + svc);
        clock.advanceBy(Duration.ofSeconds(1));
        List<Long> more = counts(overlay.drain(), 7);
        assertTrue(more.size() >= 90 && more.get(0) == ticks.size() + 1, why + ": the tick goes on: " + more);
    }

    @Test
    void messagesOfTheApplicationShouldWaitForTheBudgetUpToTheBurst() throws Exception {
        MessageStore s = store(10, 100);
        s.install(STEPS);
        for (int i = 1; i <= 30; i++) {
            s.receiveMessage(Messages.payload(93, i, 9, 9, "own" + i), Arrival.FROM_APPLICATION);
        }
        clock.advanceBy(Duration.ZERO);
        CountersSnapshot svc = s.metrics().service(93).counters();
        // 10 calls of burst: the start's setTimer, 3 steps of 3, then 10 wait (the burst), 17 refused
        assertEquals(17, svc.drops(DropReason.THROTTLED), svc.toString());
        assertEquals(3, count(overlay.drain(), ToApplication.class), "the rest wait for the budget");
        clock.advanceBy(Duration.ofSeconds(1));
        List<Call> calls = overlay.drain();
        assertEquals(10, count(calls, ToApplication.class), "the waiting messages were stepped later, all of them");
        List<Long> n = counts(calls, 9);
        assertEquals(oneTo(13).subList(3, 13), n, "in the order they came");
        assertTrue(s.metrics().service(93).counters().deferredEvents() >= 10, "the messages and some ticks waited");
    }

    @Test
    void aCompositeEventShouldRunWithTheStepThatTriggeredIt() throws Exception {
        MessageStore s = store(1, 100);
        s.install(FLOW);
        OverlayMessage first = Messages.payload(88, 1, 1, 5, "one");
        OverlayMessage second = Messages.payload(88, 2, 1, 5, "two");
        s.receiveMessage(first, Arrival.DELIVERED); // the instance's first event: its one call empties the bucket
        s.receiveMessage(second, Arrival.DELIVERED);
        clock.advanceBy(Duration.ZERO);
        assertEquals(1, s.metrics().service(88).counters().drops(DropReason.THROTTLED), "refused before the step");
        assertEquals(1, count(overlay.drain(), ToApplication.class));
        clock.advanceBy(Duration.ofMillis(10)); // one call's worth
        s.receiveMessage(second, Arrival.DELIVERED);
        clock.advanceBy(Duration.ZERO);
        List<Call> calls = overlay.drain();
        assertEquals(1, count(calls, ToApplication.class));
        assertEquals(1, count(calls, SendControl.class), "the composite 'second' ran its call, into debt");
        CountersSnapshot svc = s.metrics().service(88).counters();
        assertEquals(0, svc.actions(ActionOutcome.FAILED) + svc.actions(ActionOutcome.DISCARDED), svc.toString());
        s.receiveMessage(Messages.payload(88, 3, 1, 5, "three"), Arrival.DELIVERED);
        clock.advanceBy(Duration.ZERO);
        assertEquals(2, s.metrics().service(88).counters().drops(DropReason.THROTTLED), "the debt is repaid first");
    }

    private static long count(List<Call> calls, Class<?> type) {
        return calls.stream().filter(type::isInstance).count();
    }
}
