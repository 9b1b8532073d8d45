package io.statecast.messagestore.action;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.Call;
import io.statecast.overlay.testkit.RecordingOverlay.SendData;
import io.statecast.overlay.testkit.RecordingOverlay.ToApplication;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An XPath selecting several messages makes toApplication run once per message, in the order the
 * expression returned them; several payloads are concatenated; forgetEvents removes the selected
 * entries so a flow's history holds only what it still needs.
 */
class SelectionAndForgetTest {

    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>sel</ServiceName><ServiceID>5</ServiceID>
                  <DeliveryMode>multicast</DeliveryMode><Scope>flow</Scope></data>
                <data name="events"><Basic>
                  <Event name="m"><Message/></Event>
                  <Event name="flush"><Timer><TimerIdentifier>1</TimerIdentifier></Timer></Event>
                </Basic></data>
              </datamodel>
              <state id="s">
                <transition event="m">
                  <action:create name="setTimer"/>
                  <action:set name="setTimer" field="Timer/TimerIdentifier" value="1"/>
                  <action:set name="setTimer" field="Timer/TimerValue" value="10"/>
                  <action:execute name="setTimer"/>
                </transition>
                <transition event="flush">
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="for $i in sort(for $m in /HistoryOfEvents/Event[@name='m']/Message return xs:integer($m/MessageIdentifier)) return (/HistoryOfEvents/Event[@name='m']/Message[xs:integer(MessageIdentifier) = $i])[1]"/>
                  <action:execute name="toApplication"/>
                  <action:create name="sendDataMessage"/>
                  <action:set name="sendDataMessage" field="Message/DeliveryMode" value="multicast"/>
                  <action:set name="sendDataMessage" field="Message/Payload" xpath="/HistoryOfEvents/Event[@name='m']/Message/Payload"/>
                  <action:execute name="sendDataMessage"/>
                  <action:create name="forgetEvents"/>
                  <action:set name="forgetEvents" field="Events" xpath="/HistoryOfEvents/Event[@name='flush'] | /HistoryOfEvents/Event[@name='m'][position() lt last()]"/>
                  <action:execute name="forgetEvents"/>
                </transition>
              </state>
            </scxml>""";

    @Test
    void shouldDeliverEverySelectedMessageInSelectionOrderConcatenatePayloadsAndForget() throws Exception {
        ServiceSpec spec = Specs.parse(SPEC);
        VirtualTimerService clock = new VirtualTimerService();
        RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)));
        InstanceLimits limits = InstanceLimits.DEFAULTS;
        ServiceInstance i = new ServiceInstance(InstanceKey.ofFlow(5, a(3)), new ServiceRuntime(spec),
                new TestEnvironment(overlay, limits));
        i.start();
        for (long id : new long[] {3, 1, 2}) {
            OverlayMessage m = Messages.payload(5, id, 3, 3, "p" + id);
            i.onMessage(m, spec.matchMessage(m, a(9)));
        }
        clock.advanceBy(10, java.util.concurrent.TimeUnit.MILLISECONDS);
        List<Long> delivered = new ArrayList<>();
        String payload = null;
        for (Call c : overlay.drain()) {
            if (c instanceof ToApplication t) {
                delivered.add(t.message().fsm().messageId());
            } else if (c instanceof SendData d) {
                payload = new String(d.payload(), StandardCharsets.UTF_8);
            }
        }
        assertEquals(List.of(1L, 2L, 3L), delivered, "sorted by the for expression, not in arrival order");
        assertEquals("p3p1p2", payload, "payloads concatenated in document (arrival) order");
        assertEquals(1, i.history().size(), "the timer event and all but the last message were forgotten: "
                + i.history().entries());
        assertEquals(0, i.history().evicted());

        OverlayMessage m = Messages.payload(5, 7, 3, 3, "p7");
        i.onMessage(m, spec.matchMessage(m, a(9)));
        clock.advanceBy(10, java.util.concurrent.TimeUnit.MILLISECONDS);
        List<Long> again = new ArrayList<>();
        for (Call c : overlay.drain()) {
            if (c instanceof ToApplication t) {
                again.add(t.message().fsm().messageId());
            }
        }
        assertEquals(List.of(2L, 7L), again, "the kept entry is still there, the forgotten ones are gone");
        assertEquals(1, i.history().size(), i.history().entries().toString());
    }

    @Test
    void forgetEventsShouldTakeOnlyAnXPath() {
        String literal = SPEC.replace("field=\"Events\" xpath=\"/HistoryOfEvents/Event[@name='flush'] | "
                + "/HistoryOfEvents/Event[@name='m'][position() lt last()]\"", "field=\"Events\" value=\"all\"");
        SpecException e = assertThrows(SpecException.class, () -> Specs.parse(literal));
        assertTrue(e.getMessage().contains("field Events takes an xpath"), e.getMessage());
        String missing = SPEC.replace("<action:set name=\"forgetEvents\" field=\"Events\" xpath=\"/HistoryOfEvents/Event"
                + "[@name='flush'] | /HistoryOfEvents/Event[@name='m'][position() lt last()]\"/>", "");
        SpecException m = assertThrows(SpecException.class, () -> Specs.parse(missing));
        assertTrue(m.getMessage().contains("Events"), m.getMessage());
    }
}
