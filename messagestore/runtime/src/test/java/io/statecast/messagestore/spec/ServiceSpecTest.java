package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.event.AttributeTest;
import io.statecast.messagestore.event.BasicEventDefinition;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.HistoryReads;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.lang.reflect.Field;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The blueprint's hop-to-hop spec loads, and the loaded ServiceSpec says what it declares. */
class ServiceSpecTest {

    private static final String H2H = "specs/blueprint-h2h.scxml";
    private static SpecLoader loader;
    private static ServiceSpec h2h;

    @BeforeAll
    static void load() throws SpecException {
        loader = new SpecLoader();
        h2h = loader.load(TestResources.bytes(H2H), H2H);
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    @Test
    void shouldLoadTheBlueprintSpecWithoutAnyProblem() {
        assertEquals(List.of(), loader.validate(TestResources.bytes(H2H), H2H));
        assertEquals(List.of(), h2h.warnings());
    }

    @Test
    void shouldExposeTheServiceSectionAndMetaops() {
        assertEquals("h2hack", h2h.service().name());
        assertEquals(1, h2h.service().serviceId());
        assertEquals(Set.of(DeliveryMode.UNICAST, DeliveryMode.MULTICAST), h2h.service().deliveryModes());
        assertEquals(Scope.MESSAGE, h2h.service().scope());
        assertFalse(h2h.metaops().messageStoreWillForwardMessage());
        assertTrue(h2h.metaops().processIntermediateUnicastMessage());
    }

    @Test
    void shouldExposeStatesEventsTimersAndPrimitives() {
        assertEquals("init", h2h.structure().initialState());
        assertEquals(List.of("init", "waitack", "nopayload", "done", "reset"),
                h2h.structure().states().stream().map(SpecStructure.StateInfo::id).toList());
        assertEquals(20, h2h.structure().transitions().size());

        assertEquals(List.of("h2hnackmessage", "h2hackmessage", "h2hackreqmessage", "resetmessage", "payloadmessage"),
                h2h.messageEvents().stream().map(MessageEventDefinition::name).toList());
        assertEquals(List.of(new AttributeTest.MessageTypeIs((byte) 0x80)),
                h2h.messageEvents().get(4).filter().tests());
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8),
                h2h.timerEvents().stream().map(t -> t.filter().timerId()).toList());
        assertEquals("acktimeout", h2h.timerEvents().get(2).name());

        CompositeEventDefinition all = h2h.compositeEvents().get(0);
        assertEquals("allh2hackmessagesreceived", all.name());
        assertEquals(List.of("h2hackmessage"), all.constituents());
        assertEquals(new HistoryReads(false, Set.of("h2hackmessage")), all.query().reads());
        assertEquals(List.of(all), h2h.compositesTriggeredBy("h2hackmessage"));
        assertEquals(List.of(), h2h.compositesTriggeredBy("payloadmessage"));

        assertEquals(EnumSet.of(Primitive.SEND_DATA_MESSAGE, Primitive.SEND_CONTROL_MESSAGE, Primitive.TO_APPLICATION,
                Primitive.SET_TIMER, Primitive.CANCEL_TIMER, Primitive.TERMINATE, Primitive.UPDATE_NODE_INFO),
                h2h.primitivesUsed());
    }

    @Test
    void shouldFlagOnlyTheEventsSomeQueryCanRead() {
        for (String read : List.of("payloadmessage", "h2hackmessage", "h2hackreqmessage", "resetmessage")) {
            assertTrue(h2h.historyXmlNeeded(read), read);
        }
        for (String unread : List.of("h2hnackmessage", "acktimeout", "finaldelete", "no-such-event")) {
            assertFalse(h2h.historyXmlNeeded(unread), unread);
        }
    }

    @Test
    void shouldDeclareParametersWithDefaultsThatADeploymentCanOverride() throws SpecException {
        assertEquals(8, h2h.parameters().declared().size());
        assertEquals("5000", h2h.parameters().value("TimeoutNACK"));
        assertEquals(ParameterType.DURATION, h2h.parameters().get("TimeoutACK").type());

        ServiceSpec tuned = h2h.withParameters(Map.of("TimeoutACK", "250"));
        assertEquals(250, tuned.parameters().longValue("TimeoutACK"));
        assertEquals(500, h2h.parameters().longValue("TimeoutACK"), "the original is unchanged");
        assertSame(h2h.chart(), tuned.chart(), "the chart is shared");

        SpecException bad = assertThrows(SpecException.class,
                () -> h2h.withParameters(Map.of("TimeoutACK", "-1", "Nope", "1")));
        assertEquals(2, bad.problems().size(), bad.problems().toString());
        assertTrue(bad.getMessage().contains("TimeoutACK"), bad.getMessage());
    }

    @Test
    void shouldHashTheDocument() throws Exception {
        byte[] expected = MessageDigest.getInstance("SHA-256").digest(TestResources.bytes(H2H));
        assertEquals(HexFormat.of().formatHex(expected), h2h.sha256Hex());
    }

    @Test
    void shouldCompileEveryStateOfTheDocumentIntoTheChart() {
        for (var st : h2h.structure().states()) {
            assertTrue(h2h.chart().state(st.id()) != null, "state " + st.id() + " is in the chart");
        }
        assertTrue(h2h.chart().warnings().isEmpty(), h2h.chart().warnings().toString());
    }

    @Test
    void shouldMatchMessagesAndTimersWithTheCompiledFilters() {
        DtAddress a = new DtAddress(100, 100);
        DtAddress b = new DtAddress(200, 200);
        OverlayMessage payload = new OverlayMessage(DeliveryMode.MULTICAST, 255, a, null, a, null,
                List.of(new FsmExtension(1, FsmExtension.PAYLOAD_TYPE, 42), new PayloadExtension(new byte[] {1})));
        OverlayMessage ack = new OverlayMessage(DeliveryMode.UNICAST, 255, b, a, b, null,
                List.of(new FsmExtension(1, (byte) 2, 42)));
        OverlayMessage unmarked = new OverlayMessage(DeliveryMode.UNICAST, 255, b, a, b, null, List.of());
        assertEquals(List.of("payloadmessage"), names(h2h.matchMessage(payload, b)));
        assertEquals(List.of("h2hackmessage"), names(h2h.matchMessage(ack, a)));
        assertEquals(List.of(), h2h.matchMessage(unmarked, a));
        assertEquals(List.of("acktimeout"), h2h.matchTimer(3).stream().map(TimerEventDefinition::name).toList());
        assertEquals(List.of(), h2h.matchTimer(99));
        BasicEventDefinition d = h2h.basicEvent("maxnacktimeout");
        assertTrue(d instanceof TimerEventDefinition t && t.filter().timerId() == 8);
    }

    private static List<String> names(List<MessageEventDefinition> defs) {
        return defs.stream().map(MessageEventDefinition::name).toList();
    }

    @Test
    void shouldRunTheBlueprintMachineAndHandItsActionsToTheSink() throws Exception {
        EngineDriver d = new EngineDriver(h2h);
        assertEquals(Set.of("init"), d.states());
        ActionTemplate finalDelete = d.recorded.get(0);
        assertEquals(Primitive.SET_TIMER, finalDelete.primitive());
        assertEquals(new FieldValue.Literal("1"), finalDelete.valueOf(ActionField.TIMER_IDENTIFIER));
        assertEquals(new FieldValue.ParameterRef("TimeoutFinalDelete"), finalDelete.valueOf(ActionField.TIMER_VALUE));
        assertEquals(List.of("setTimer"), d.drain());

        d.fire("payloadmessage");
        assertEquals(Set.of("waitack"), d.states());
        ActionTemplate ack = d.recorded.get(0);
        assertTrue(ack.valueOf(ActionField.DESTINATION_ADDRESS) instanceof FieldValue.HistoryQuery q
                && q.path().text().endsWith("/Message/PreviousHopAddress"), ack.toString());
        assertEquals(List.of("sendControlMessage", "toApplication", "updateNodeInfo", "setTimer", "setTimer"), d.drain());

        d.fire("acktimeout"); // targetless: the transition whose paths 0.9 fills lazily
        assertEquals(Set.of("waitack"), d.states());
        assertEquals(List.of("sendControlMessage", "setTimer"), d.drain());

        d.fire("h2hnackmessage");
        assertEquals(List.of("sendDataMessage"), d.drain());

        d.fire("allh2hackmessagesreceived");
        assertEquals(Set.of("done"), d.states());
        assertEquals(List.of("cancelTimer", "cancelTimer", "setTimer"), d.drain(), "transition actions, then entry");

        d.fire("msgtimeout");
        assertEquals(List.of("terminate"), d.drain());
        assertEquals(0, h2h.engineErrors());
    }
}
