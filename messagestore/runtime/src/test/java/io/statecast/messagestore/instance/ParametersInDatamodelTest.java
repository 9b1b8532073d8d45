package io.statecast.messagestore.instance;

import io.statecast.messagestore.support.Keys;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.ToApplication;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A spec's parameters in the datamodel's expressions: {@code $Name} in a {@code <data expr>}, a
 * {@code cond} and an {@code <assign expr>}, on the engine's own evaluators and on Saxon, with the
 * defaults and with a deployment's overrides; a variable of a parameter's name, or an assignment
 * to a parameter, is refused when the spec loads.
 */
class ParametersInDatamodelTest {

    /**
     * Delivers every Every-th message ($n counts from Start); the third condition runs on Saxon
     * (max() is outside the engine's subset), the others on the subset.
     */
    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initial="s" datamodel="xpath">
              <datamodel>
                <data name="service"><ServiceName>params</ServiceName><ServiceID>46</ServiceID>
                  <DeliveryMode>multicast</DeliveryMode></data>
                <data name="parameters">
                  <Parameter name="Every" type="integer" default="2">deliver every Every-th message</Parameter>
                  <Parameter name="Start" type="integer" default="0">the count's start</Parameter>
                  <Parameter name="Quiet" type="duration" default="500">unused by the chart's logic</Parameter>
                </data>
                <data name="events"><Basic>
                  <Event name="msg"><Message><MessageKind>data</MessageKind></Message></Event>
                </Basic></data>
                <data id="n" expr="$Start"/>
              </datamodel>
              <state id="s">
                <transition event="msg" cond="($n + 1) mod $Every = 0 and max(($Quiet, 1)) = $Quiet">
                  <assign location="$n" expr="$n + 1"/>
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='msg'][last()]/Message"/>
                  <action:execute name="toApplication"/>
                </transition>
                <transition event="msg">
                  <assign location="$n" expr="$n + 1"/>
                </transition>
              </state>
            </scxml>""";

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(1), clock,
            new FixedTopology(a(1)).tree(a(9), a(9), a(2)));

    private List<String> delivered(ServiceSpec s, String... texts) throws Exception {
        ServiceInstance i = new ServiceInstance(Keys.message(46, 7), new ServiceRuntime(s),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        i.start();
        for (String t : texts) {
            OverlayMessage m = Messages.payload(46, 7, 9, 9, t);
            i.onMessage(m, s.matchMessage(m, a(1)));
        }
        return overlay.drain().stream().filter(ToApplication.class::isInstance)
                .map(c -> new String(((ToApplication) c).message().payload(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void shouldReadTheDefaultsInDataCondAndAssign() throws Exception {
        assertEquals(List.of("b", "d", "f"), delivered(Specs.parse(SPEC), "a", "b", "c", "d", "e", "f"));
    }

    @Test
    void shouldReadADeploymentsOverrides() throws Exception {
        ServiceSpec s = Specs.parse(SPEC).withParameters(Map.of("Every", "3", "Start", "1"));
        assertEquals(List.of("b", "e"), delivered(s, "a", "b", "c", "d", "e", "f"),
                "counting from 1, every third: the 2nd and the 5th");
    }

    @Test
    void shouldRefuseAVariableNamedAsAParameter() {
        SpecException e = assertThrows(SpecException.class,
                () -> Specs.parse(SPEC.replace("<data id=\"n\" expr=\"$Start\"/>", "<data id=\"n\" expr=\"$Start\"/><data id=\"Every\" expr=\"1\"/>")));
        assertTrue(e.getMessage().contains("variable 'Every' has the name of a parameter"), e.getMessage());
    }

    @Test
    void shouldStillNameALocationThatStartsAtNoVariable() {
        SpecException e = assertThrows(SpecException.class,
                () -> Specs.parse(SPEC.replace("<transition event=\"msg\">",
                        "<transition event=\"msg\"><assign location=\"count(1)\" expr=\"3\"/>")));
        assertTrue(e.getMessage().contains("does not start at a declared variable"), e.getMessage());
    }

    @Test
    void shouldRefuseAnAssignmentToAParameter() {
        SpecException e = assertThrows(SpecException.class,
                () -> Specs.parse(SPEC.replace("<transition event=\"msg\">",
                        "<transition event=\"msg\"><assign location=\"$Every\" expr=\"3\"/>")));
        assertTrue(e.getMessage().contains("a parameter is read-only"), e.getMessage());
    }
}
