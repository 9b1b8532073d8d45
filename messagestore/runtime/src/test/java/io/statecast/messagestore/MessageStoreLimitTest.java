package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.chart.ChartLimit;
import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.Call;
import io.statecast.overlay.testkit.RecordingOverlay.ToApplication;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An instance whose state machine a {@link io.statecast.messagestore.chart.ChartLimits} bound
 * stops ends at once ({@code EndCause.LIMIT}), is counted per service and per bound, leaves no
 * timer behind and does not quarantine its service. On clock threading and a virtual clock.
 */
class MessageStoreLimitTest {

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)).tree(a(1), a(5)));
    private final List<MessageStore> stores = new ArrayList<>();

    /**
     * A service whose {@code idle} state sets timer 1 (500 ms) and a delayed {@code <send>}
     * (700 ms), both delivering the message when they fire; {@code msg} delivers it too and goes
     * to {@code states}. Every delivery is a {@code toApplication}, so any late one is seen.
     */
    private static ServiceSpec spec(int id, String scope, String serviceExtra, String states) throws Exception {
        return Specs.parse("""
                <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                       xmlns:action="http://my.custom-actions.domain/action" initial="idle" datamodel="xpath">
                  <datamodel>
                    <data name="service">
                      <ServiceName>limit%d</ServiceName>
                      <ServiceID>%d</ServiceID>
                      <DeliveryMode>multicast</DeliveryMode>
                      <Scope>%s</Scope>%s
                    </data>
                    <data name="events">
                      <Basic>
                        <Event name="msg"><Message><MessageKind>data</MessageKind></Message></Event>
                        <Event name="tick"><Timer><TimerIdentifier>1</TimerIdentifier></Timer></Event>
                      </Basic>
                    </data>
                    <data id="n" expr="0"/>
                    <data id="i"/>
                    <data id="j"/>
                  </datamodel>
                  <state id="idle">
                    <onentry>
                      <action:create name="setTimer"/>
                      <action:set name="setTimer" field="Timer/TimerIdentifier" value="1"/>
                      <action:set name="setTimer" field="Timer/TimerValue" value="500"/>
                      <action:execute name="setTimer"/>
                      <send event="late" delay="700ms"/>
                    </onentry>
                    <transition event="msg" target="next">%s</transition>
                    <transition event="tick">%s</transition>
                    <transition event="late">%s</transition>
                  </state>
                  %s
                </scxml>""".formatted(id, id, scope, serviceExtra, DELIVER, DELIVER, DELIVER, states));
    }

    private static final String DELIVER = """
            <action:create name="toApplication"/>
            <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='msg'][last()]/Message"/>
            <action:execute name="toApplication"/>""";

    /** An eventless loop guarded by a cond that stays true: two states entering each other. */
    private static final String LOOP = """
            <state id="next"><transition cond="$n &gt;= 0" target="spun"/></state>
            <state id="spun"><transition cond="$n &gt;= 0" target="next"/></state>""";

    /** 200 x 100 raised events: the queues hold 10,000. */
    private static final String FLOOD = """
            <state id="next">
              <onentry>
                <foreach array="1 to 200" item="i"><foreach array="1 to 100" item="j"><raise event="more"/></foreach></foreach>
              </onentry>
              <transition event="more"/>
            </state>""";

    /** A foreach over 20,000 items (the bound is 10,000), the error handled by the chart. */
    private static final String FOREACH = """
            <state id="next">
              <onentry><foreach array="1 to 20000" item="i"><assign location="$n" expr="$n + 1"/></foreach></onentry>
              <transition event="error.execution" target="refused">%s</transition>
            </state>
            <state id="refused"/>""".formatted(DELIVER);

    private MessageStore store() {
        MessageStore s = new MessageStore(MessageStoreConfig.defaults().withShards(2).withWarmStart(false)
                .withThreading(MessageStoreConfig.Threading.CLOCK), Specs.loader(), SpecResolver.defaults());
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

    private static long delivered(List<Call> calls) {
        return calls.stream().filter(ToApplication.class::isInstance).count();
    }

    @Test
    void shouldEndAnInstanceWhoseEventlessLoopPassesTheMicrostepBoundAndStartAFreshOneForItsFlow() throws Exception {
        MessageStore s = store();
        s.install(spec(61, "flow", "", LOOP));
        s.receiveMessage(Messages.payload(61, 1, 5, 5, "a"), Arrival.DELIVERED);
        settle();
        CountersSnapshot svc = s.metrics().service(61).counters();
        assertEquals(1, svc.created());
        assertEquals(1, svc.limitEnds(ChartLimit.MICROSTEPS), () -> s.metrics().format());
        assertEquals(0, svc.liveInstances(), "ended at once, not at the idle timeout");
        assertEquals(0, svc.terminated() + svc.finished() + svc.expired());
        assertEquals(1, svc.actions(ActionOutcome.DISCARDED), "the step that looped has no effect outside");
        assertEquals(0, delivered(overlay.drain()));

        clock.advanceBy(Duration.ofSeconds(2));
        svc = s.metrics().service(61).counters();
        assertEquals(0, svc.timerEvents(), "neither timer 1 nor the delayed send reached the ended instance");
        assertEquals(0, delivered(overlay.drain()));

        s.receiveMessage(Messages.payload(61, 2, 5, 5, "b"), Arrival.DELIVERED);
        settle();
        svc = s.metrics().service(61).counters();
        assertEquals(2, svc.created(), "flow scope: the next message of the flow starts a fresh instance");
        assertEquals(2, svc.limitEnds(ChartLimit.MICROSTEPS));
        assertEquals(0, svc.limitEnds(ChartLimit.QUEUED_EVENTS));

        MessageStoreMetrics m = s.metrics();
        assertEquals(2, m.node().limitEnds(ChartLimit.MICROSTEPS), "counted per node too");
        assertFalse(s.service(61).quarantined(), "a limit ends the instance, not the service");
        assertEquals(0, m.quarantines());
        assertTrue(m.format().contains("ended by limits 2 MICROSTEPS 2"), m.format());
    }

    @Test
    void shouldEndAnInstanceWhoseRaisesOverflowItsQueueAndRefuseItsMessageAfterwards() throws Exception {
        MessageStore s = store();
        s.install(spec(62, "message", "", FLOOD));
        s.receiveMessage(Messages.payload(62, 1, 5, 5, "a"), Arrival.DELIVERED);
        settle();
        CountersSnapshot svc = s.metrics().service(62).counters();
        assertEquals(1, svc.limitEnds(ChartLimit.QUEUED_EVENTS), () -> s.metrics().format());
        assertEquals(0, svc.limitEnds(ChartLimit.MICROSTEPS));
        assertEquals(0, svc.liveInstances());
        assertEquals(0, delivered(overlay.drain()));

        clock.advanceBy(Duration.ofSeconds(2));
        assertEquals(0, s.metrics().service(62).counters().timerEvents());
        assertEquals(0, delivered(overlay.drain()));

        s.receiveMessage(Messages.payload(62, 1, 5, 5, "a again"), Arrival.DELIVERED);
        settle();
        svc = s.metrics().service(62).counters();
        assertEquals(1, svc.created(), "message scope: the ended instance's tombstone refuses its message");
        assertEquals(1, svc.drops(DropReason.TERMINATED_INSTANCE));
        assertFalse(s.service(62).quarantined());
    }

    @Test
    void shouldGiveBackTheInFlightCountOfAnOwnMessageWhoseInstanceALimitEnded() throws Exception {
        MessageStore s = store();
        s.install(spec(63, "message", "\n<InFlight>idle next</InFlight>", FLOOD));
        assertTrue(s.sendWindow().counts(63));
        s.receiveMessage(Messages.payload(63, 1, 9, 9, "own"), Arrival.FROM_APPLICATION);
        assertEquals(1, s.sendWindow().inFlight(63), "counted on accept");
        settle();
        assertEquals(1, s.metrics().service(63).counters().limitEnds(ChartLimit.QUEUED_EVENTS),
                () -> s.metrics().format());
        assertEquals(0, s.sendWindow().inFlight(63), "released when the instance ended");
    }

    /**
     * A foreach over more items than {@code maxForeachItems} does not stop the machine: the
     * foreach is refused with {@code error.execution} (counted as an engine error), which the
     * chart may handle, and the instance lives on.
     */
    @Test
    void shouldLetTheChartHandleAForeachOverTheItemBoundWithoutEndingTheInstance() throws Exception {
        MessageStore s = store();
        s.install(spec(64, "flow", "", FOREACH));
        s.receiveMessage(Messages.payload(64, 1, 5, 5, "a"), Arrival.DELIVERED);
        settle();
        CountersSnapshot svc = s.metrics().service(64).counters();
        assertEquals(0, svc.totalLimitEnds(), () -> s.metrics().format());
        assertEquals(1, svc.liveInstances());
        assertEquals(1, s.service(64).spec().engineErrors(), "the refused foreach is an engine error");
        assertEquals(2, delivered(overlay.drain()), "msg's delivery, then the error.execution handler's");
    }
}
