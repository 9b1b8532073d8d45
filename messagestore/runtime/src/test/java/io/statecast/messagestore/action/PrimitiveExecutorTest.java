package io.statecast.messagestore.action;

import io.statecast.messagestore.support.Keys;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Actions whose fields make no valid call fail one by one, each with a message naming what is wrong. */
class PrimitiveExecutorTest {

    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>bad</ServiceName><ServiceID>5</ServiceID><DeliveryMode>unicast</DeliveryMode></data>
                <data name="events"><Basic>
                  <Event name="m"><Message/></Event>
                  <Event name="t"><Timer/></Event>
                </Basic></data>
              </datamodel>
              <state id="s">
                <transition event="m">
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="3"/>
                  <action:execute name="sendControlMessage"/>
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message/DeliveryMode" value="unicast"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="3"/>
                  <action:execute name="sendControlMessage"/>
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message" xpath="/HistoryOfEvents/Event[@name='m'][last()]/@name"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="3"/>
                  <action:execute name="sendControlMessage"/>
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message/DeliveryMode" value="unicast"/>
                  <action:set name="sendControlMessage" field="Message/DestinationAddress" xpath="string(/HistoryOfEvents/Event[@name='m']/@name)"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="3"/>
                  <action:execute name="sendControlMessage"/>
                  <action:create name="sendDataMessage"/>
                  <action:set name="sendDataMessage" field="Message/DeliveryMode" value="multicast"/>
                  <action:execute name="sendDataMessage"/>
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='t'][last()]/Message"/>
                  <action:execute name="toApplication"/>
                  <action:create name="setTimer"/>
                  <action:set name="setTimer" field="Timer/TimerIdentifier" value="1"/>
                  <action:set name="setTimer" field="Timer/TimerValue" value="100"/>
                  <action:execute name="setTimer"/>
                  <action:create name="setTimer"/>
                  <action:set name="setTimer" field="Timer/TimerIdentifier" value="2"/>
                  <action:set name="setTimer" field="Timer/TimerValue" value="100"/>
                  <action:execute name="setTimer"/>
                  <action:create name="cancelTimer"/>
                  <action:set name="cancelTimer" field="Timer/TimerIdentifier" value="9"/>
                  <action:execute name="cancelTimer"/>
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message" xpath="/HistoryOfEvents/Event[@name='m'][last()]/Message"/>
                  <action:set name="sendControlMessage" field="Message/DeliveryMode" value="unicast"/>
                  <action:set name="sendControlMessage" field="Message/DestinationAddress" value="4"/>
                  <action:set name="sendControlMessage" field="Message/HopLimit" value="3"/>
                  <action:execute name="sendControlMessage"/>
                </transition>
              </state>
            </scxml>""";

    @Test
    void shouldFailEachInvalidCallAndGoOnWithTheNext() throws Exception {
        ServiceSpec spec = Specs.parse(SPEC);
        VirtualTimerService clock = new VirtualTimerService();
        RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)));
        InstanceLimits limits = new InstanceLimits(10, 16, 32, 1, 100, 100, 60_000, 10, 1_000);
        ServiceInstance i = new ServiceInstance(Keys.message(5, 1), new ServiceRuntime(spec),
                new TestEnvironment(overlay, limits));
        i.start();
        var m = Messages.payload(5, 1, 3, 3, "x");
        i.onMessage(m, spec.matchMessage(m, a(9)));
        List<ActionRecord> r = i.actionHistory();
        assertEquals(10, r.size(), r::toString);
        expectFailure(r.get(0), "no delivery mode");
        expectFailure(r.get(1), "a unicast needs Message/DestinationAddress");
        expectFailure(r.get(2), "the xpath must select a <Message> of the history, got text 'm'");
        expectFailure(r.get(3), "field Message/DestinationAddress: a logical address is 'x,y' (Delaunay) or a whole number");
        expectFailure(r.get(4), "a data message needs a payload");
        expectFailure(r.get(5), "field Message: the xpath selected nothing");
        assertEquals(ActionOutcome.EXECUTED, r.get(6).outcome());
        expectFailure(r.get(7), "the most allowed (timersPerInstance)");
        assertEquals(ActionOutcome.EXECUTED, r.get(8).outcome());
        assertEquals("the timer was not set", r.get(8).detail());
        assertEquals(ActionOutcome.EXECUTED, r.get(9).outcome());
        assertEquals(List.of(new SendControl(5, (byte) 0x80, 1, null, new Route(DeliveryMode.UNICAST, a(4), null, 3))),
                overlay.drain(), "the copied message keeps its type and id; the fields override the rest");
    }

    private static final String REPORT_SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>report</ServiceName><ServiceID>5</ServiceID><DeliveryMode>unicast</DeliveryMode></data>
                <data name="events"><Basic><Event name="m"><Message/></Event></Basic></data>
              </datamodel>
              <state id="s">
                <transition event="m">
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='m'][last()]/Message"/>
                  <action:set name="toApplication" field="Message/MessageType" value="7"/>
                  <action:execute name="toApplication"/>
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='m'][last()]/Message"/>
                  <action:set name="toApplication" field="Message/MessageType" value="0x80"/>
                  <action:execute name="toApplication"/>
                </transition>
              </state>
            </scxml>""";

    @Test
    void toApplicationWithAMessageTypeShouldDeliverAControlCopyOfThatType() throws Exception {
        ServiceSpec spec = Specs.parse(REPORT_SPEC);
        VirtualTimerService clock = new VirtualTimerService();
        RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)));
        ServiceInstance i = new ServiceInstance(Keys.message(5, 1), new ServiceRuntime(spec),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        i.start();
        var m = Messages.payload(5, 1, 3, 3, "x");
        i.onMessage(m, spec.matchMessage(m, a(9)));
        List<ActionRecord> r = i.actionHistory();
        assertEquals(ActionOutcome.EXECUTED, r.get(0).outcome(), r::toString);
        expectFailure(r.get(1), "0x80 is the payload type");
        List<RecordingOverlay.Call> calls = overlay.drain();
        assertEquals(1, calls.size(), calls::toString);
        var delivered = ((RecordingOverlay.ToApplication) calls.get(0)).message();
        assertEquals(new io.statecast.overlay.message.FsmExtension(5, (byte) 7, 1), delivered.fsm());
        assertEquals(null, delivered.payload(), "a control copy carries no payload");
        assertEquals(m.source(), delivered.source());
        assertEquals(m.mode(), delivered.mode());
        assertTrue(delivered.fields().isEmpty(), "no fields set, none carried");
    }

    private static final String NOTICE_SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>notice</ServiceName><ServiceID>5</ServiceID><DeliveryMode>unicast</DeliveryMode></data>
                <data name="events"><Basic><Event name="m"><Message/></Event></Basic></data>
              </datamodel>
              <state id="s">
                <transition event="m">
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='m'][last()]/Message"/>
                  <action:set name="toApplication" field="Message/MessageType" value="4"/>
                  <action:set name="toApplication" field="Message/Fields/ring" xpath="2 + 1"/>
                  <action:set name="toApplication" field="Message/Fields/mem" type="string" xpath="concat('1 ', '3')"/>
                  <action:set name="toApplication" field="Message/Fields/none" xpath="()"/>
                  <action:execute name="toApplication"/>
                </transition>
              </state>
            </scxml>""";

    @Test
    void toApplicationControlCopyShouldCarryOnlyTheFieldsTheActionSets() throws Exception {
        ServiceSpec spec = Specs.parse(NOTICE_SPEC);
        VirtualTimerService clock = new VirtualTimerService();
        RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)));
        ServiceInstance i = new ServiceInstance(Keys.message(5, 1), new ServiceRuntime(spec),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        i.start();
        var base = Messages.payload(5, 1, 3, 3, "x");
        var m = new io.statecast.overlay.message.OverlayMessage(base.mode(), base.hopLimit(), base.source(),
                base.destination(), base.previousHop(), base.root(), List.of(base.fsm(),
                        new io.statecast.overlay.message.FieldsExtension(io.statecast.overlay.message.MessageFields.EMPTY
                                .with("safe", new io.statecast.overlay.message.MessageField.Int(1))),
                        new io.statecast.overlay.message.PayloadExtension(base.payload())));
        i.onMessage(m, spec.matchMessage(m, a(9)));
        List<ActionRecord> r = i.actionHistory();
        assertEquals(ActionOutcome.EXECUTED, r.get(0).outcome(), r::toString);
        List<RecordingOverlay.Call> calls = overlay.drain();
        var delivered = ((RecordingOverlay.ToApplication) calls.get(0)).message();
        assertEquals(new io.statecast.overlay.message.FsmExtension(5, (byte) 4, 1), delivered.fsm());
        assertEquals(new io.statecast.overlay.message.MessageField.Int(3), delivered.fields().get("ring"));
        assertEquals(new io.statecast.overlay.message.MessageField.Text("1 3"), delivered.fields().get("mem"));
        assertEquals(2, delivered.fields().size(), () -> "the base's field safe and the empty one are not carried: "
                + delivered.fields());
    }

    private static void expectFailure(ActionRecord r, String text) {
        assertEquals(ActionOutcome.FAILED, r.outcome(), r.toString());
        assertTrue(r.detail().contains(text), r.detail());
        assertTrue(r.detail().startsWith(r.primitive().specName() + " (line " + r.line() + "): "), r.detail());
    }
}
