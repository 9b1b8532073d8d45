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
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.support.Specs;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FieldsExtension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.substrate.VirtualTimerService;
import io.statecast.overlay.testkit.RecordingOverlay;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A message rebuilt from a parity repair reaches the application as its source sent it:
 * {@code payload:xor-parity} XORs the parity forms of a variable number of held payloads, and
 * {@code toApplication} takes the rebuilt payload, the original source, MessageID, mode and fields as
 * overrides of a base message. Overrides that make no sense fail the call with a message.
 */
class RebuiltDeliveryTest {

    /** Data messages are kept; a repair (field id) rebuilds the one payload of the group not held. */
    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>rebuild</ServiceName><ServiceID>5</ServiceID>
                  <DeliveryMode>unicast</DeliveryMode><DeliveryMode>multicast</DeliveryMode><Scope>flow</Scope></data>
                <data name="events"><Basic>
                  <Event name="data"><Message><MessageType>-128</MessageType></Message></Event>
                  <Event name="bad"><Message><MessageType>9</MessageType></Message></Event>
                </Basic></data>
              </datamodel>
              <state id="s">
                <transition event="data" cond="exists($_x?history/HistoryOfEvents/Event[@name='data'][last()]/Message/Fields/Field[@name='id'])">
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='data'][last()]/Message"/>
                  <action:set name="toApplication" field="Message/Payload" xpath="let $r := /HistoryOfEvents/Event[@name='data'][last()] return payload:recover(payload:xor($r/Message/Payload, payload:xor-parity(/HistoryOfEvents/Event[@name='data'][not(. is $r)]/Message/Payload)))"/>
                  <action:set name="toApplication" field="Message/SourceAddress" xpath="string(/HistoryOfEvents/Event[@name='data'][1]/Message/SourceAddress)"/>
                  <action:set name="toApplication" field="Message/MessageIdentifier" xpath="/HistoryOfEvents/Event[@name='data'][last()]/Message/Fields/Field[@name='id']"/>
                  <action:set name="toApplication" field="Message/Fields/how" value="1"/>
                  <action:set name="toApplication" field="Message/DeliveryMode" value="multicast"/>
                  <action:execute name="toApplication"/>
                </transition>
                <transition event="bad">
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='bad'][last()]/Message"/>
                  <action:set name="toApplication" field="Message/MessageType" value="7"/>
                  <action:set name="toApplication" field="Message/Payload" value="x"/>
                  <action:execute name="toApplication"/>
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='bad'][last()]/Message"/>
                  <action:set name="toApplication" field="Message/Payload" value="x"/>
                  <action:execute name="toApplication"/>
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='bad'][last()]/Message"/>
                  <action:set name="toApplication" field="Message/SourceAddress" value="1,2"/>
                  <action:execute name="toApplication"/>
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='bad'][last()]/Message"/>
                  <action:set name="toApplication" field="Message/MessageType" value="7"/>
                  <action:set name="toApplication" field="Message/Fields/how" value="2"/>
                  <action:execute name="toApplication"/>
                </transition>
              </state>
            </scxml>""";

    private final long seed = Long.getLong("statecast.seed", System.nanoTime());

    @Test
    void aPayloadRebuiltFromARepairShouldReachTheApplicationAsItsSourceSentIt() throws Exception {
        Random random = new Random(seed);
        String where = "seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + ")";
        for (int round = 0; round < 20; round++) {
            RecordingOverlay overlay = new RecordingOverlay(a(1), new VirtualTimerService(), new FixedTopology(a(1)));
            ServiceSpec spec = Specs.parse(SPEC);
            ServiceInstance instance = new ServiceInstance(InstanceKey.ofFlow(5, a(7)), new ServiceRuntime(spec),
                    new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
            instance.start();
            int n = 2 + random.nextInt(7);
            int missing = random.nextInt(n);
            List<byte[]> group = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] p = new byte[random.nextInt(200)];
                random.nextBytes(p);
                group.add(p);
                if (i != missing) {
                    deliver(instance, spec, data(7, 100 + i, MessageFields.EMPTY, p));
                }
            }
            overlay.drain();
            // the repair comes from another node (3), for the group's sender (7)
            deliver(instance, spec, data(3, 555, MessageFields.of(Map.of("id", new MessageField.Int(100 + missing))),
                    PayloadOps.xorParity(group)));
            var calls = overlay.drain();
            assertEquals(1, calls.size(), where + ": " + instance.actionHistory());
            OverlayMessage got = ((RecordingOverlay.ToApplication) calls.get(0)).message();
            assertArrayEquals(group.get(missing), got.payload(), where + ", round " + round);
            assertEquals(a(7), got.source(), where);
            assertEquals(DeliveryMode.MULTICAST, got.mode(), where + ": the repair came by unicast, the message was a multicast");
            assertEquals(a(7), got.root(), where + ": a multicast's tree is its source's");
            assertEquals(null, got.destination(), where);
            assertEquals(new FsmExtension(5, FsmExtension.PAYLOAD_TYPE, 100 + missing), got.fsm(), where);
            assertEquals(new MessageField.Int(1), got.fields().get("how"), where);
            assertEquals(new MessageField.Int(100 + missing), got.fields().get("id"), where + ": the base's fields stay");
        }
    }

    @Test
    void overridesThatMakeNoSenseShouldFailTheCallWithAMessage() throws Exception {
        RecordingOverlay overlay = new RecordingOverlay(a(1), new VirtualTimerService(), new FixedTopology(a(1)));
        ServiceSpec spec = Specs.parse(SPEC);
        ServiceInstance instance = new ServiceInstance(InstanceKey.ofFlow(5, a(7)), new ServiceRuntime(spec),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        instance.start();
        OverlayMessage control = new OverlayMessage(DeliveryMode.UNICAST, 9, a(7), a(1), a(7), null,
                List.of(new FsmExtension(5, (byte) 9, 4)));
        deliver(instance, spec, control);
        List<ActionRecord> r = instance.actionHistory();
        assertEquals(4, r.size(), r::toString);
        expectFailure(r.get(0), "a control copy (Message/MessageType 7) carries no payload");
        expectFailure(r.get(1), "the base is a control message (type 9), which carries no payload");
        expectFailure(r.get(2), "source 1,2 is not an address of this overlay");
        assertEquals(ActionOutcome.EXECUTED, r.get(3).outcome(), r::toString);
        var calls = overlay.drain();
        assertEquals(1, calls.size(), calls::toString);
        OverlayMessage got = ((RecordingOverlay.ToApplication) calls.get(0)).message();
        assertEquals(new FsmExtension(5, (byte) 7, 4), got.fsm());
        assertEquals(new MessageField.Int(2), got.fields().get("how"), "a control copy takes fields too");
    }

    @Test
    void aSourceAddressLiteralThatIsNoAddressShouldBeRefusedAtLoad() {
        String bad = SPEC.replace("field=\"Message/SourceAddress\" value=\"1,2\"", "field=\"Message/SourceAddress\" value=\"nowhere\"");
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> Specs.parse(bad));
        assertTrue(e.getMessage().contains("SourceAddress"), e.getMessage());
    }

    private static void deliver(ServiceInstance instance, ServiceSpec spec, OverlayMessage m) {
        instance.onMessage(m, spec.matchMessage(m, a(1)));
    }

    private static OverlayMessage data(long source, long id, MessageFields fields, byte[] payload) {
        List<io.statecast.overlay.message.Extension> ext = new ArrayList<>();
        ext.add(new FsmExtension(5, FsmExtension.PAYLOAD_TYPE, id));
        if (!fields.isEmpty()) {
            ext.add(new FieldsExtension(fields));
        }
        ext.add(new PayloadExtension(payload));
        return new OverlayMessage(DeliveryMode.UNICAST, 9, a(source), a(1), a(source), null, ext);
    }

    private static void expectFailure(ActionRecord r, String text) {
        assertEquals(ActionOutcome.FAILED, r.outcome(), r.toString());
        assertTrue(r.detail().contains(text), r.detail());
    }
}
