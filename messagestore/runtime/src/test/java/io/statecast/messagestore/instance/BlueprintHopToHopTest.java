package io.statecast.messagestore.instance;

import io.statecast.messagestore.support.Keys;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.action.ActionRecord;
import io.statecast.messagestore.event.HistoryEntry;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.Call;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.overlay.testkit.RecordingOverlay.SendData;
import io.statecast.overlay.testkit.RecordingOverlay.ToApplication;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The blueprint's hop-to-hop acknowledgement service (reconstructed fixture) driven by scripted
 * events on a virtual clock; every primitive call it makes is checked in order.
 *
 * <p>This node is 9; in the tree rooted at the source 100 its parent is 5 and its children 2 and 3.
 */
class BlueprintHopToHopTest {

    private static final ServiceSpec H2H = Specs.load("specs/blueprint-h2h.scxml");
    private static final long MID = 42;

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock,
            new FixedTopology(a(9)).tree(a(100), a(5), a(2), a(3)));
    private final TestEnvironment env = new TestEnvironment(overlay, InstanceLimits.DEFAULTS);
    private final ServiceRuntime runtime = new ServiceRuntime(H2H);
    private final OverlayMessage payload = Messages.payload(1, MID, 100, 5, "Hello World");

    private ServiceInstance start() {
        ServiceInstance i = new ServiceInstance(Keys.message(1, MID), runtime, env);
        i.start();
        assertEquals(Set.of("init"), i.states());
        assertEquals(Set.of(1), i.timersSet(), "finaldelete is set on entry");
        assertEquals(List.of(), overlay.drain());
        return i;
    }

    private void deliver(ServiceInstance i, OverlayMessage m) {
        i.onMessage(m, H2H.matchMessage(m, a(9)));
    }

    private static Route unicast(long to) {
        return new Route(DeliveryMode.UNICAST, a(to), null, Route.DEFAULT_HOP_LIMIT);
    }

    private static Route toChildren() {
        return new Route(DeliveryMode.MULTICAST, null, a(100), 1);
    }

    @Test
    void shouldAcknowledgeDeliverAndCollectTheChildrensAcknowledgements() {
        ServiceInstance i = start();

        deliver(i, payload);
        assertEquals(Set.of("waitack"), i.states());
        List<Call> calls = overlay.drain();
        assertEquals(2, calls.size(), calls::toString);
        assertEquals(new SendControl(1, (byte) 2, MID, null, unicast(5)), calls.get(0), "H2H ACK to the previous hop");
        assertSame(payload, ((ToApplication) calls.get(1)).message(), "payload to the application");
        assertEquals(Set.of(1, 3, 4), i.timersSet());
        assertInstanceOf(HistoryEntry.NodeRecord.class, i.history().entries().get(1), "updateNodeInfo recorded");
        HistoryEntry.NodeRecord node = (HistoryEntry.NodeRecord) i.history().entries().get(1);
        assertEquals(List.of(a(2), a(3)), node.node().children());
        assertEquals(a(5), node.node().parent());

        deliver(i, Messages.control(1, 2, MID, 2, 9, 2));
        assertEquals(Set.of("waitack"), i.states(), "one of two children acknowledged");
        assertEquals(List.of(), overlay.drain());
        assertEquals(1, runtime.counters().snapshot().compositeEvaluations());

        clock.advanceBy(Duration.ofMillis(500));
        assertEquals(List.of(new SendControl(1, (byte) 3, MID, null, toChildren())), overlay.drain(),
                "TimeoutACK: ask the children again, one hop down the source's tree");
        assertEquals(Set.of(1, 3, 4), i.timersSet(), "acktimeout re-armed");

        deliver(i, Messages.control(1, 2, MID, 3, 9, 3));
        assertEquals(Set.of("done"), i.states(), "all children acknowledged: the composite event fired");
        assertEquals(List.of(), overlay.drain());
        assertEquals(Set.of(1, 5), i.timersSet(), "ACK timers cancelled, TimeoutMsg set");
        assertEquals(1, runtime.counters().snapshot().compositesFired());

        deliver(i, Messages.control(1, 1, MID, 2, 9, 2));
        calls = overlay.drain();
        assertEquals(1, calls.size(), calls::toString);
        SendData resend = (SendData) calls.get(0);
        assertEquals(MID, resend.messageId());
        assertEquals(toChildren(), resend.route(), "NACK: payload again to the children");
        assertArrayEquals("Hello World".getBytes(StandardCharsets.UTF_8), resend.payload());

        deliver(i, Messages.multicastControl(1, 3, MID, 5, 100, 5));
        assertEquals(List.of(new SendControl(1, (byte) 2, MID, null, unicast(5))), overlay.drain(),
                "the parent asks again: acknowledge again");

        clock.advanceBy(Duration.ofMillis(9_999));
        assertNull(i.ended());
        clock.advanceBy(Duration.ofMillis(1));
        assertEquals(EndCause.TERMINATED, i.ended(), "TimeoutMsg: terminate");
        assertEquals(List.of("service 1 message 42 from #1 TERMINATED"), env.endings);
        assertEquals(Set.of(), i.timersSet(), "every timer cancelled");
        clock.advanceBy(Duration.ofMinutes(2));
        assertEquals(List.of(), overlay.drain());
        assertEquals(0, clock.taskFailures());
        for (ActionRecord r : i.actionHistory()) {
            assertEquals(ActionOutcome.EXECUTED, r.outcome(), r.toString());
        }
    }

    @Test
    void shouldAskForAMissingPayloadAndRecoverWhenItComes() {
        ServiceInstance i = start();
        deliver(i, Messages.multicastControl(1, 3, MID, 5, 100, 5));
        assertEquals(Set.of("nopayload"), i.states());
        assertEquals(List.of(new SendControl(1, (byte) 1, MID, null, unicast(5))), overlay.drain(), "NACK to the parent");
        assertEquals(Set.of(1, 2, 8), i.timersSet());

        clock.advanceBy(Duration.ofMillis(5_000));
        assertEquals(List.of(new SendControl(1, (byte) 1, MID, null, unicast(5))), overlay.drain(), "TimeoutNACK: again");

        deliver(i, payload);
        assertEquals(Set.of("waitack"), i.states());
        List<Call> calls = overlay.drain();
        assertEquals(new SendControl(1, (byte) 2, MID, null, unicast(5)), calls.get(0));
        assertSame(payload, ((ToApplication) calls.get(1)).message());
        assertEquals(2, calls.size());
        assertEquals(Set.of(1, 3, 4), i.timersSet(), "NACK timers cancelled, ACK timers set");
    }

    @Test
    void shouldResetTheChildrenAndDeleteTheStateAfterTimeoutMaxRst() {
        ServiceInstance i = start();
        deliver(i, payload);
        overlay.drain();
        deliver(i, Messages.multicastControl(1, 4, MID, 5, 100, 5));
        assertEquals(Set.of("reset"), i.states());
        Route children = toChildren();
        assertEquals(List.of(new SendControl(1, (byte) 4, MID, null, children)), overlay.drain(), "Reset to the children");
        clock.advanceBy(Duration.ofMillis(500));
        assertEquals(List.of(new SendControl(1, (byte) 4, MID, null, children)), overlay.drain(), "TimeoutRST: again");
        clock.advanceBy(Duration.ofMillis(2_500));
        assertEquals(EndCause.TERMINATED, i.ended(), "TimeoutMaxRST: terminate");
        assertEquals(4, overlay.drain().size(),
                "resets at 1000..2500 ms; at 3000 TimeoutMaxRST (set first) wins the tie and ends the instance");
    }

    @Test
    void shouldKeepTheTimestampedHistoryOfActions() {
        ServiceInstance i = start();
        clock.advanceBy(Duration.ofMillis(7));
        deliver(i, payload);
        List<ActionRecord> actions = i.actionHistory();
        assertEquals(List.of(Primitive.SET_TIMER, Primitive.SEND_CONTROL_MESSAGE, Primitive.TO_APPLICATION,
                Primitive.UPDATE_NODE_INFO, Primitive.SET_TIMER, Primitive.SET_TIMER),
                actions.stream().map(ActionRecord::primitive).toList());
        assertEquals(0, actions.get(0).timeMillis());
        assertEquals(7, actions.get(1).timeMillis());
        assertEquals(7, ((HistoryEntry.MessageEvent) i.history().entries().get(0)).timeMillis());
    }

    @Test
    void anEndedInstancePassesItsHistoryAndActionLogLengthsToTheNext() {
        assertEquals(4, runtime.expectedHistoryEntries(), "before any instance ended");
        assertEquals(4, runtime.expectedActionRecords());
        ServiceInstance i = start();
        deliver(i, payload);
        clock.advanceBy(Duration.ofSeconds(20));
        assertEquals(EndCause.TERMINATED, i.ended());
        // unacknowledged, it asked its children again every TimeoutACK until it gave up: long lists
        assertEquals(Math.min(16, i.history().entries().size()), runtime.expectedHistoryEntries());
        assertEquals(Math.min(16, i.actionHistory().size()), runtime.expectedActionRecords());
        assertTrue(runtime.expectedActionRecords() > 6, "the payload's actions and the timers' came after start");

        runtime.instanceEnded(7, 9);
        assertEquals(7, runtime.expectedHistoryEntries());
        assertEquals(9, runtime.expectedActionRecords());

        runtime.instanceEnded(1_000, 2_000);
        assertEquals(16, runtime.expectedHistoryEntries(), "a long-lived instance does not make later ones start large");
        assertEquals(16, runtime.expectedActionRecords());
        overlay.drain(); // the first instance's sends
        ServiceInstance next = start();
        deliver(next, payload);
        assertEquals(Set.of("waitack"), next.states(), "an instance starting with the longer lists runs as before");
    }
}
