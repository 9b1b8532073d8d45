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
import io.statecast.overlay.testkit.RecordingOverlay.Call;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.overlay.testkit.RecordingOverlay.SendData;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A {@code Message/DestinationAddress} XPath selecting several addresses makes a send primitive
 * send one message to each distinct address, in the order selected: how a parent asks only the
 * children whose acknowledgement is missing. One address, or another field selecting several
 * values, behaves as before (the first value).
 */
class SeveralDestinationsTest {

    /**
     * A node with children 2, 3, 4 and 5 records them, collects acknowledgements (type 2), and on
     * its timer asks the silent children (type 3, unicast, one hop) and sends them a data message;
     * {@code HOPS} and {@code MODE} are replaced per test.
     */
    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>ask</ServiceName><ServiceID>5</ServiceID>
                  <DeliveryMode>multicast</DeliveryMode><Scope>message</Scope></data>
                <data name="events"><Basic>
                  <Event name="payload"><Message><MessageType>-128</MessageType></Message></Event>
                  <Event name="ack"><Message><MessageType>2</MessageType></Message></Event>
                  <Event name="ask"><Timer><TimerIdentifier>1</TimerIdentifier></Timer></Event>
                </Basic></data>
              </datamodel>
              <state id="s">
                <transition event="payload">
                  <action:create name="updateNodeInfo"/>
                  <action:execute name="updateNodeInfo"/>
                  <action:create name="setTimer"/>
                  <action:set name="setTimer" field="Timer/TimerIdentifier" value="1"/>
                  <action:set name="setTimer" field="Timer/TimerValue" value="10"/>
                  <action:execute name="setTimer"/>
                </transition>
                <transition event="ask">
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message" xpath="/HistoryOfEvents/Event[@name='payload'][1]/Message"/>
                  <action:set name="sendControlMessage" field="Message/DeliveryMode" value="MODE"/>
                  <action:set name="sendControlMessage" field="Message/DestinationAddress" xpath="SILENT"/>
                  <action:set name="sendControlMessage" field="Message/HopLimit" HOPS/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="3"/>
                  <action:execute name="sendControlMessage"/>
                  <action:create name="sendDataMessage"/>
                  <action:set name="sendDataMessage" field="Message/DeliveryMode" value="unicast"/>
                  <action:set name="sendDataMessage" field="Message/DestinationAddress" xpath="SILENT"/>
                  <action:set name="sendDataMessage" field="Message/Payload" value="again"/>
                  <action:execute name="sendDataMessage"/>
                </transition>
              </state>
            </scxml>""";

    /** Children not acknowledged, in tree order, then the acknowledged ones' sources again (duplicates). */
    private static final String SILENT = "(/HistoryOfEvents/Node[last()]/Children/LogicalAddress[not(. ="
            + " /HistoryOfEvents/Event[@name='ack']/Message/SourceAddress)], /HistoryOfEvents/Node[last()]/Children"
            + "/LogicalAddress[not(. = /HistoryOfEvents/Event[@name='ack']/Message/SourceAddress)])";

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(1), clock,
            new FixedTopology(a(1)).tree(a(9), a(8), a(2), a(3), a(4), a(5)));

    private ServiceInstance run(String spec, long... acked) throws Exception {
        ServiceSpec s = Specs.parse(spec);
        ServiceInstance i = new ServiceInstance(Keys.message(5, 7), new ServiceRuntime(s),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        i.start();
        OverlayMessage p = Messages.payload(5, 7, 9, 8, "hi");
        i.onMessage(p, s.matchMessage(p, a(1)));
        for (long child : acked) {
            OverlayMessage ack = Messages.control(5, 2, 7, child, 1, child);
            i.onMessage(ack, s.matchMessage(ack, a(1)));
        }
        overlay.drain();
        clock.advanceBy(10, TimeUnit.MILLISECONDS);
        return i;
    }

    private static String spec(String mode, String hops, String silent) {
        return SPEC.replace("MODE", mode).replace("HOPS", hops).replace("SILENT", silent);
    }

    @Test
    void shouldSendOneMessageToEachSelectedDestinationOnceInSelectionOrder() throws Exception {
        ServiceInstance i = run(spec("unicast", "value=\"1\"", SILENT), 3);
        List<Call> calls = overlay.drain();
        assertEquals(List.of(
                new SendControl(5, (byte) 3, 7, null, new Route(DeliveryMode.UNICAST, a(2), null, 1)),
                new SendControl(5, (byte) 3, 7, null, new Route(DeliveryMode.UNICAST, a(4), null, 1)),
                new SendControl(5, (byte) 3, 7, null, new Route(DeliveryMode.UNICAST, a(5), null, 1))),
                calls.stream().filter(SendControl.class::isInstance).toList(),
                "children 2, 4, 5 are silent (3 acknowledged); the selection names each twice, sent once");
        List<SendData> data = calls.stream().filter(SendData.class::isInstance).map(SendData.class::cast).toList();
        assertEquals(List.of(a(2), a(4), a(5)), data.stream().map(d -> d.route().destination()).toList(),
                "sendDataMessage likewise");
        assertTrue(data.stream().allMatch(d -> new String(d.payload(), StandardCharsets.UTF_8).equals("again")),
                data.toString());
        assertEquals(2, i.actionHistory().stream().filter(r -> r.outcome() == ActionOutcome.EXECUTED
                && (r.primitive().specName().startsWith("send"))).count(), "each send is one primitive call");
    }

    @Test
    void oneSelectedDestinationIsOneMessage() throws Exception {
        run(spec("unicast", "value=\"1\"", SILENT), 2, 3, 4);
        assertEquals(List.of(new SendControl(5, (byte) 3, 7, null, new Route(DeliveryMode.UNICAST, a(5), null, 1))),
                overlay.drain().stream().filter(SendControl.class::isInstance).toList());
    }

    @Test
    void nothingSelectedFallsBackToTheBasesDestinationAsBefore() throws Exception {
        // every child acknowledged: no destination selected, and a multicast base has none -
        // the call fails with the usual reason, nothing is sent
        ServiceInstance i = run(spec("unicast", "value=\"1\"", SILENT), 2, 3, 4, 5);
        assertEquals(List.of(), overlay.drain());
        ActionRecord failed = i.actionHistory().stream().filter(r -> r.outcome() == ActionOutcome.FAILED)
                .findFirst().orElseThrow();
        assertTrue(failed.detail().contains("a unicast needs Message/DestinationAddress"), failed.detail());
    }

    @Test
    void aMulticastIgnoresTheDestinationsAndOtherFieldsTakeTheFirstValue() throws Exception {
        // HopLimit from an XPath selecting the silent children's addresses (2, 4, 5): the first, 2
        run(spec("multicast", "xpath=\"" + SILENT + "\"", SILENT), 3);
        List<Call> control = overlay.drain().stream().filter(SendControl.class::isInstance).toList();
        assertEquals(List.of(new SendControl(5, (byte) 3, 7, null, new Route(DeliveryMode.MULTICAST, null, a(9), 2))),
                control, "one multicast on the payload's tree");
    }

    @Test
    void anUnparsableSelectedDestinationFailsTheCallNamingTheField() throws Exception {
        String bad = "(/HistoryOfEvents/Node[last()]/Children/LogicalAddress, 'nowhere')";
        ServiceInstance i = run(spec("unicast", "value=\"1\"", bad));
        assertEquals(List.of(), overlay.drain().stream().filter(SendControl.class::isInstance).toList(),
                "no message goes out when one destination is bad");
        ActionRecord failed = i.actionHistory().stream().filter(r -> r.outcome() == ActionOutcome.FAILED)
                .findFirst().orElseThrow();
        assertTrue(failed.detail().contains("Message/DestinationAddress") && failed.detail().contains("nowhere"),
                failed.detail());
    }
}
