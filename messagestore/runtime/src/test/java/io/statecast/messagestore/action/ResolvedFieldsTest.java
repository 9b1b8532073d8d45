package io.statecast.messagestore.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ActionField;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.Parameters;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Specs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Literals and parameters resolve once per deployment, numbers parsed; XPath fields stay as they are. */
class ResolvedFieldsTest {

    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
              <datamodel>
                <data name="service"><ServiceName>resolved</ServiceName><ServiceID>5</ServiceID><DeliveryMode>unicast</DeliveryMode></data>
                <data name="parameters">
                  <Parameter name="Wait" type="duration" default="250">how long</Parameter>
                </data>
                <data name="events"><Basic>
                  <Event name="m"><Message/></Event>
                  <Event name="t"><Timer><TimerIdentifier>7</TimerIdentifier></Timer></Event>
                </Basic></data>
              </datamodel>
              <state id="s">
                <transition event="m">
                  <action:create name="setTimer"/>
                  <action:set name="setTimer" field="Timer/TimerIdentifier" value="1"/>
                  <action:set name="setTimer" field="Timer/TimerIdentifier" value=" 7 "/>
                  <action:set name="setTimer" field="Timer/TimerValue" param="Wait"/>
                  <action:execute name="setTimer"/>
                  <action:create name="sendControlMessage"/>
                  <action:set name="sendControlMessage" field="Message" xpath="/HistoryOfEvents/Event[@name='m'][last()]/Message"/>
                  <action:set name="sendControlMessage" field="Message/DeliveryMode" value="unicast"/>
                  <action:set name="sendControlMessage" field="Message/MessageType" value="0x05"/>
                  <action:execute name="sendControlMessage"/>
                </transition>
              </state>
            </scxml>
            """;

    @Test
    void shouldResolveTheLastAssignmentOfEachLiteralAndParameterOnce() throws Exception {
        ServiceSpec spec = Specs.parse(SPEC);
        ResolvedFields timer = ResolvedFields.of(action(spec, Primitive.SET_TIMER), spec.parameters());

        assertEquals(" 7 ", timer.text(ActionField.TIMER_IDENTIFIER));
        assertTrue(timer.isWhole(ActionField.TIMER_IDENTIFIER));
        assertEquals(7, timer.number(ActionField.TIMER_IDENTIFIER));
        assertEquals("250", timer.text(ActionField.TIMER_VALUE));
        assertEquals(250, timer.number(ActionField.TIMER_VALUE));
        assertInstanceOf(FieldValue.ParameterRef.class, timer.value(ActionField.TIMER_VALUE));
        assertNull(timer.value(ActionField.MESSAGE));
        assertNull(timer.text(ActionField.MESSAGE));
        assertFalse(timer.isWhole(ActionField.MESSAGE));
    }

    @Test
    void shouldTakeAParameterFromTheDeploymentAndLeaveXPathsAndNonNumbersUnparsed() throws Exception {
        ServiceSpec spec = Specs.parse(SPEC).withParameters(Map.of("Wait", "900"));
        assertEquals(900, ResolvedFields.of(action(spec, Primitive.SET_TIMER), spec.parameters())
                .number(ActionField.TIMER_VALUE));

        ResolvedFields send = ResolvedFields.of(action(spec, Primitive.SEND_CONTROL_MESSAGE), spec.parameters());
        assertInstanceOf(FieldValue.HistoryQuery.class, send.value(ActionField.MESSAGE));
        assertNull(send.text(ActionField.MESSAGE));
        assertEquals("unicast", send.text(ActionField.DELIVERY_MODE));
        assertFalse(send.isWhole(ActionField.DELIVERY_MODE));
        // hexadecimal is the primitive's own syntax, parsed where it runs
        assertEquals("0x05", send.text(ActionField.MESSAGE_TYPE));
        assertFalse(send.isWhole(ActionField.MESSAGE_TYPE));
    }

    @Test
    void shouldLeaveAnUndeclaredParameterAsAReferenceForTheActionToReport() {
        ActionTemplate a = new ActionTemplate(Primitive.SET_TIMER, List.of(
                new FieldAssignment(ActionField.TIMER_VALUE, new FieldValue.ParameterRef("Missing"), 3)), 3);
        ResolvedFields f = ResolvedFields.of(a, Parameters.NONE);
        assertNull(f.text(ActionField.TIMER_VALUE));
        assertFalse(f.isWhole(ActionField.TIMER_VALUE));
        assertEquals(new FieldValue.ParameterRef("Missing"), f.value(ActionField.TIMER_VALUE));
    }

    private static ActionTemplate action(ServiceSpec spec, Primitive p) {
        return spec.actions().stream().filter(a -> a.primitive() == p).findFirst().orElseThrow();
    }
}
