package io.statecast.messagestore.action;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Message fields end to end inside the store: a received message's fields are in the history
 * ({@code Message/Fields/Field[@name]}), XQuery reads them, and {@code Message/Fields/NAME}
 * settings put typed fields into the messages an action sends; bad settings are refused at load.
 */
class MessageFieldsActionTest {

    /** Acknowledges every data message with its seq, a SACK of all seqs seen, the window, a note and the blob back. */
    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>win</ServiceName><ServiceID>5</ServiceID>
                  <DeliveryMode>unicast</DeliveryMode><Scope>flow</Scope></data>
                <data name="parameters">
                  <Parameter name="Window" type="integer" default="8">Receive window.</Parameter>
                </data>
                <data name="events">
                  <Basic><Event name="data"><Message><MessageType>-128</MessageType></Message></Event></Basic>
                  <Composite><Event name="answer">
                    <ConstituentBasicEvent>data</ConstituentBasicEvent>
                    <XQuery>/HistoryOfEvents/Event[@name='data'][last()]/Message/Fields/Field[@name='seq'][@type='integer'] = 42</XQuery>
                  </Event></Composite>
                </data>
              </datamodel>
              <state id="s">
                <transition event="data">
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message/DeliveryMode" value="unicast"/>
                  <action:set name="sendControlMessage" field="Message/DestinationAddress"
                      xpath="/HistoryOfEvents/Event[@name='data'][last()]/Message/SourceAddress"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="2"/>
                  <action:set name="sendControlMessage" field="Message/Fields/ack"
                      xpath="/HistoryOfEvents/Event[@name='data'][last()]/Message/Fields/Field[@name='seq']"/>
                  <action:set name="sendControlMessage" field="Message/Fields/sack" type="ranges"
                      xpath="/HistoryOfEvents/Event[@name='data']/Message/Fields/Field[@name='seq']"/>
                  <action:set name="sendControlMessage" field="Message/Fields/win" param="Window"/>
                  <action:set name="sendControlMessage" field="Message/Fields/note" type="string" value="h&#233;llo"/>
                  <action:set name="sendControlMessage" field="Message/Fields/blob" type="bytes"
                      xpath="/HistoryOfEvents/Event[@name='data'][last()]/Message/Fields/Field[@name='blob']"/>
                  <action:execute name="sendControlMessage"/>
                </transition>
                <transition event="answer">
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message" xpath="/HistoryOfEvents/Event[@name='data'][last()]/Message"/>
                  <action:set name="sendControlMessage" field="Message/DestinationAddress" value="9"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="3"/>
                  <action:set name="sendControlMessage" field="Message/Fields/seq" value="43"/>
                  <action:execute name="sendControlMessage"/>
                </transition>
              </state>
            </scxml>""";

    private final long seed = Long.getLong("statecast.seed", System.nanoTime());
    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(1), clock, new FixedTopology(a(1)).tree(a(9), a(9)));

    private static OverlayMessage data(long seq, byte[] blob) {
        MessageFields fields = MessageFields.of(Map.of("seq", new MessageField.Int(seq), "blob",
                new MessageField.Bytes(blob)));
        return new OverlayMessage(DeliveryMode.UNICAST, 9, a(7), a(1), a(7), null, List.of(
                new FsmExtension(5, FsmExtension.PAYLOAD_TYPE, 100 + seq), new FieldsExtension(fields),
                new PayloadExtension("x".getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void shouldReadReceivedFieldsAndSendTypedFields() throws Exception {
        Random random = new Random(seed);
        ServiceSpec spec = Specs.parse(SPEC);
        ServiceInstance instance = new ServiceInstance(InstanceKey.ofFlow(5, a(7)), new ServiceRuntime(spec),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        instance.start();
        List<Long> seqs = new ArrayList<>(List.of(1L, 2L, 3L, 5L, 9L, 10L));
        java.util.Collections.shuffle(seqs, random);
        byte[] blob = null;
        for (long seq : seqs) {
            blob = new byte[random.nextInt(64)];
            random.nextBytes(blob);
            OverlayMessage m = data(seq, blob);
            instance.onMessage(m, spec.matchMessage(m, a(1)));
        }
        List<SendControl> sent = overlay.drain().stream().filter(SendControl.class::isInstance)
                .map(SendControl.class::cast).toList();
        String where = "seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + "), seqs " + seqs;
        assertEquals(seqs.size(), sent.size(), where + ": " + instance.actionHistory());
        SendControl last = sent.get(sent.size() - 1);
        assertEquals(new MessageField.Int(seqs.get(seqs.size() - 1)), last.fields().get("ack"), where);
        assertEquals("1-3 5-5 9-10", ((MessageField.Ranges) last.fields().get("sack")).text(), where);
        assertEquals(new MessageField.Int(8), last.fields().get("win"), where);
        assertEquals(new MessageField.Text("héllo"), last.fields().get("note"), where);
        assertArrayEquals(blob, ((MessageField.Bytes) last.fields().get("blob")).value(), where);
        assertEquals(List.of("ack", "blob", "note", "sack", "win"), List.copyOf(last.fields().asMap().keySet()));
    }

    @Test
    void shouldFireACompositeEventOnAFieldAndOverrideTheBasesFields() throws Exception {
        ServiceSpec spec = Specs.parse(SPEC);
        ServiceInstance instance = new ServiceInstance(InstanceKey.ofFlow(5, a(7)), new ServiceRuntime(spec),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        instance.start();
        OverlayMessage m = data(42, new byte[] {1, 2});
        instance.onMessage(m, spec.matchMessage(m, a(1)));
        List<SendControl> answers = overlay.drain().stream().filter(SendControl.class::isInstance)
                .map(SendControl.class::cast).filter(c -> c.messageType() == 3).toList();
        assertEquals(1, answers.size(), instance.actionHistory().toString());
        // the base's fields are copied (blob), the set one overrides (seq)
        Map<String, MessageField> expected = new LinkedHashMap<>();
        expected.put("blob", new MessageField.Bytes(new byte[] {1, 2}));
        expected.put("seq", new MessageField.Int(43));
        assertEquals(MessageFields.of(expected), answers.get(0).fields());
    }

    @Test
    void shouldRefuseBadFieldSettingsAtLoadWithTheirLine() {
        String[][] bad = {
            {"field=\"Message/Fields/9lives\" value=\"1\"", "FieldPath"},
            {"field=\"Message/Fields/ok\" type=\"integer\" value=\"99999999999999999999\"", "whole number"},
            {"field=\"Message/Fields/" + "n".repeat(33) + "\" value=\"1\"", "MAX_NAME_BYTES=32"},
            {"field=\"Message/Fields/seq\" value=\"x\"", "whole number"},
            {"field=\"Message/Fields/sack\" type=\"ranges\" value=\"5-2\"", "first <= last"},
            {"field=\"Message/Fields/seq\" type=\"float\" value=\"1\"", "float"},
            {"field=\"Message/HopLimit\" type=\"string\" value=\"1\"", "type"},
        };
        for (String[] b : bad) {
            String spec = SPEC.replace("field=\"Message/Fields/win\" param=\"Window\"", b[0]);
            SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> Specs.parse(spec), b[0]);
            // the schema may see a malformed path or type first; the validator's own error is there too
            assertTrue(e.problems().stream().anyMatch(p -> p.isError() && p.line() == 28 && p.message().contains(b[1])),
                    b[0] + " -> " + e.problems());
        }
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < MessageFields.MAX_FIELDS; i++) {
            many.append("<action:set name=\"sendControlMessage\" field=\"Message/Fields/f").append(i)
                    .append("\" value=\"").append(i).append("\"/>\n");
        }
        String tooMany = SPEC.replace("<action:set name=\"sendControlMessage\" field=\"Message/Fields/win\" param=\"Window\"/>",
                many.toString());
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> Specs.parse(tooMany));
        assertTrue(e.getMessage().contains("MAX_FIELDS=16"), e.getMessage());
        StringBuilder fat = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            fat.append("<action:set name=\"sendControlMessage\" field=\"Message/Fields/s").append(i)
                    .append("\" type=\"string\" value=\"").append("x".repeat(1000)).append("\"/>\n");
        }
        String tooBig = SPEC.replace("<action:set name=\"sendControlMessage\" field=\"Message/Fields/win\" param=\"Window\"/>",
                fat.toString());
        SpecException big = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> Specs.parse(tooBig));
        assertTrue(big.getMessage().contains("MAX_TOTAL_BYTES=4096"), big.getMessage());
    }
}
