package io.statecast.messagestore.action;

import io.statecast.messagestore.support.Keys;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code sequence="instance|next"}: numbers of the instance's flow (service, source), counted by
 * the service across its instances, independent of the node's MessageID counter.
 */
class FlowSequenceTest {

    /** Each message instance numbers itself once (seq) and every send (n); a timer retransmits. */
    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>seq</ServiceName><ServiceID>5</ServiceID>
                  <DeliveryMode>multicast</DeliveryMode><Scope>message</Scope></data>
                <data name="events"><Basic>
                  <Event name="data"><Message><MessageType>-128</MessageType></Message></Event>
                  <Event name="again"><Timer><TimerIdentifier>1</TimerIdentifier></Timer></Event>
                </Basic></data>
              </datamodel>
              <state id="s">
                <onentry>
                  <action:create name="setTimer"/>
                  <action:set name="setTimer" field="Timer/TimerIdentifier" value="1"/>
                  <action:set name="setTimer" field="Timer/TimerValue" value="10"/>
                  <action:execute name="setTimer"/>
                </onentry>
                <transition event="data">SEND</transition>
                <transition event="again">SEND</transition>
              </state>
            </scxml>""".replace("SEND", """
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message/DeliveryMode" value="multicast"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="2"/>
                  <action:set name="sendControlMessage" field="Message/Fields/seq" sequence="instance"/>
                  <action:set name="sendControlMessage" field="Message/Fields/n" sequence="next"/>
                  <action:execute name="sendControlMessage"/>""");

    private final long seed = Long.getLong("statecast.seed", System.nanoTime());
    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(1), clock, new FixedTopology(a(1)).tree(a(9), a(9)));

    @Test
    void shouldNumberEachFlowsInstancesFromZeroAndKeepAnInstancesNumberForRetransmissions() throws Exception {
        Random random = new Random(seed);
        String where = "seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + ")";
        ServiceSpec spec = Specs.parse(SPEC);
        ServiceRuntime runtime = new ServiceRuntime(spec);
        TestEnvironment env = new TestEnvironment(overlay, InstanceLimits.DEFAULTS);
        Map<Long, List<Long>> seqsBySource = new HashMap<>();
        List<Long> sources = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long source = 2 + random.nextInt(3);
            long messageId = random.nextLong();
            ServiceInstance instance = new ServiceInstance(Keys.message(5, messageId), runtime, env);
            instance.start();
            OverlayMessage m = Messages.payload(5, messageId, source, source, "x");
            instance.onMessage(m, spec.matchMessage(m, a(1)));
            clock.advanceBy(10, TimeUnit.MILLISECONDS); // the retransmission
            List<SendControl> sent = overlay.drain().stream().filter(SendControl.class::isInstance)
                    .map(SendControl.class::cast).toList();
            assertEquals(2, sent.size(), where + ": " + instance.actionHistory());
            long seq = ((MessageField.Int) sent.get(0).fields().get("seq")).value();
            assertEquals(sent.get(0).fields().get("seq"), sent.get(1).fields().get("seq"),
                    where + ": a retransmission keeps the instance's number");
            assertTrue(((MessageField.Int) sent.get(1).fields().get("n")).value()
                    > ((MessageField.Int) sent.get(0).fields().get("n")).value(), where + ": next takes a new number");
            seqsBySource.computeIfAbsent(source, k -> new ArrayList<>()).add(seq);
            sources.add(source);
        }
        // per source, the instance numbers are distinct and increasing (each instance also took
        // two "next" numbers from the same counter): 0, 3, 6, …
        for (Map.Entry<Long, List<Long>> e : seqsBySource.entrySet()) {
            List<Long> seqs = e.getValue();
            for (int i = 0; i < seqs.size(); i++) {
                assertEquals(3L * i, seqs.get(i), where + ": source " + e.getKey() + " got " + seqs + " (order " + sources + ")");
            }
        }
    }

    @Test
    void shouldRefuseASequenceForANonIntegerField() {
        String bad = SPEC.replaceFirst("field=\"Message/Fields/seq\" sequence=\"instance\"",
                "field=\"Message/Fields/seq\" type=\"string\" sequence=\"instance\"");
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> Specs.parse(bad));
        assertTrue(e.getMessage().contains("a sequence number is an integer"), e.getMessage());
        String other = SPEC.replaceFirst("field=\"Message/MessageType\" value=\"2\"",
                "field=\"Message/MessageType\" sequence=\"next\"");
        SpecException e2 = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> Specs.parse(other));
        assertTrue(e2.getMessage().contains("for message fields"), e2.getMessage());
    }
}
