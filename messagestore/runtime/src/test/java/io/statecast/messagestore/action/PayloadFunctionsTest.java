package io.statecast.messagestore.action;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.event.PayloadOps;
import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.overlay.testkit.RecordingOverlay.SendData;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FieldsExtension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The payload: functions inside actions and composite events of a running instance. */
class PayloadFunctionsTest {

    private static final String FIRST = "/HistoryOfEvents/Event[@name='data'][1]/Message/Payload";
    private static final String LAST = "/HistoryOfEvents/Event[@name='data'][last()]/Message/Payload";

    /** Sends the parity of the first and last payload, with the last one's length and digest; answers a verified digest. */
    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>fec</ServiceName><ServiceID>5</ServiceID>
                  <DeliveryMode>unicast</DeliveryMode><Scope>flow</Scope></data>
                <data name="events">
                  <Basic><Event name="data"><Message><MessageType>-128</MessageType></Message></Event></Basic>
                  <Composite><Event name="verified">
                    <ConstituentBasicEvent>data</ConstituentBasicEvent>
                    <XQuery>payload:sha256(LAST, 8) = /HistoryOfEvents/Event[@name='data'][last()]/Message/Fields/Field[@name='dig']</XQuery>
                  </Event></Composite>
                </data>
              </datamodel>
              <state id="s">
                <transition event="data">
                  <action:create name="sendDataMessage"/>
                  <action:set name="sendDataMessage" field="Message/DeliveryMode" value="unicast"/>
                  <action:set name="sendDataMessage" field="Message/DestinationAddress" value="9"/>
                  <action:set name="sendDataMessage" field="Message/Payload"
                      xpath="payload:xor(payload:parity(FIRST), payload:parity(LAST))"/>
                  <action:set name="sendDataMessage" field="Message/Fields/len" xpath="payload:length(LAST)"/>
                  <action:set name="sendDataMessage" field="Message/Fields/dig" type="bytes" xpath="payload:sha256(LAST, 8)"/>
                  <action:execute name="sendDataMessage"/>
                </transition>
                <transition event="verified">
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message/DeliveryMode" value="unicast"/>
                  <action:set name="sendControlMessage" field="Message/DestinationAddress" value="9"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="9"/>
                  <action:execute name="sendControlMessage"/>
                </transition>
              </state>
            </scxml>""".replace("FIRST", FIRST).replace("LAST", LAST);

    private final long seed = Long.getLong("statecast.seed", System.nanoTime());
    private final RecordingOverlay overlay = new RecordingOverlay(a(1), new VirtualTimerService(),
            new FixedTopology(a(1)).tree(a(9), a(9)));

    @Test
    void shouldComputeParityLengthAndDigestInActionsAndQueries() throws Exception {
        Random random = new Random(seed);
        String where = "seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + ")";
        ServiceSpec spec = Specs.parse(SPEC);
        ServiceInstance instance = new ServiceInstance(InstanceKey.ofFlow(5, a(7)), new ServiceRuntime(spec),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        instance.start();
        byte[] first = null;
        for (int i = 0; i < 5; i++) {
            byte[] p = new byte[random.nextInt(300)];
            random.nextBytes(p);
            first = first == null ? p : first;
            boolean honest = random.nextBoolean();
            byte[] digest = PayloadOps.sha256(honest ? p : new byte[] {1}, 8);
            OverlayMessage m = new OverlayMessage(DeliveryMode.UNICAST, 9, a(7), a(1), a(7), null, List.of(
                    new FsmExtension(5, FsmExtension.PAYLOAD_TYPE, i),
                    new FieldsExtension(MessageFields.of(Map.of("dig", new MessageField.Bytes(digest)))),
                    new PayloadExtension(p)));
            instance.onMessage(m, spec.matchMessage(m, a(1)));
            var calls = overlay.drain();
            SendData sent = calls.stream().filter(SendData.class::isInstance).map(SendData.class::cast).findFirst()
                    .orElseThrow(() -> new AssertionError(where + ": " + instance.actionHistory()));
            // the parity of first and this one, minus the first's, is this one
            assertArrayEquals(p, PayloadOps.recover(PayloadOps.xor(sent.payload(), PayloadOps.parity(first))), where);
            assertEquals(new MessageField.Int(p.length), sent.fields().get("len"), where);
            assertArrayEquals(PayloadOps.sha256(p, 8), ((MessageField.Bytes) sent.fields().get("dig")).value(), where);
            assertEquals(honest, calls.stream().anyMatch(c -> c instanceof SendControl sc && sc.messageType() == 9),
                    where + ": the composite event compares digests, honest=" + honest);
        }
        assertTrue(instance.actionHistory().stream().noneMatch(r -> r.outcome() == ActionOutcome.FAILED),
                instance.actionHistory().toString());
    }
}
