package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageFilterTest {

    private static final DtAddress SELF = new DtAddress(1, 1);
    private static final DtAddress OTHER = new DtAddress(2, 2);

    private static OverlayMessage message(DtAddress source, byte type, boolean payload) {
        return new OverlayMessage(DeliveryMode.UNICAST, 7, source, SELF, source, null, payload
                ? List.of(new FsmExtension(9, type, 5L), new PayloadExtension(new byte[] {1}))
                : List.of(new FsmExtension(9, type, 5L)));
    }

    @Test
    void shouldMatchEveryMessageWhenTheFilterIsEmpty() {
        assertTrue(new MessageFilter(List.of()).matches(message(OTHER, (byte) 2, false), SELF));
    }

    @Test
    void shouldRequireEveryTest() {
        MessageFilter ackFromElsewhere = new MessageFilter(List.of(new AttributeTest.MessageTypeIs((byte) 2),
                new AttributeTest.AddressIs(MessageAttribute.SOURCE_ADDRESS, OTHER)));
        assertTrue(ackFromElsewhere.matches(message(OTHER, (byte) 2, false), SELF));
        assertFalse(ackFromElsewhere.matches(message(SELF, (byte) 2, false), SELF));
        assertFalse(ackFromElsewhere.matches(message(OTHER, (byte) 3, false), SELF));
    }

    @Test
    void shouldResolveLocalToTheEvaluatingNode() {
        // Blueprint Table 4.3: an ACK whose source is the local node is an error.
        MessageFilter ownAck = new MessageFilter(List.of(new AttributeTest.AddressIs(MessageAttribute.SOURCE_ADDRESS,
                null)));
        assertTrue(ownAck.matches(message(SELF, (byte) 2, false), SELF));
        assertFalse(ownAck.matches(message(OTHER, (byte) 2, false), SELF));
    }

    @Test
    void shouldTellDataFromControlAndTestTheOtherAttributes() {
        OverlayMessage data = message(OTHER, FsmExtension.PAYLOAD_TYPE, true);
        assertTrue(new AttributeTest.KindIs(true).test(data, SELF));
        assertFalse(new AttributeTest.KindIs(true).test(message(OTHER, (byte) 2, false), SELF));
        assertTrue(new AttributeTest.ServiceIdIs(9).test(data, SELF));
        assertTrue(new AttributeTest.MessageIdIs(5L).test(data, SELF));
        assertTrue(new AttributeTest.HopLimitIs(7).test(data, SELF));
        assertTrue(new AttributeTest.DeliveryModeIs(DeliveryMode.UNICAST).test(data, SELF));
        assertTrue(new AttributeTest.AddressIs(MessageAttribute.ROOT_ADDRESS, SELF).test(data, SELF),
                "root of a unicast is its destination");
        OverlayMessage unmarked = new OverlayMessage(DeliveryMode.UNICAST, 7, OTHER, SELF, OTHER, null, List.of());
        assertFalse(new AttributeTest.MessageTypeIs((byte) 2).test(unmarked, SELF));
    }

    @Test
    void shouldParseSpecValuesAndNameTheAcceptedForms() {
        assertEquals((byte) 0x80, AttributeValues.byteValue("-128"));
        assertEquals((byte) 0x80, AttributeValues.byteValue("128"));
        assertEquals((byte) 0x80, AttributeValues.byteValue("0x80"));
        assertEquals(new DtAddress(100, -5), AttributeValues.address("100, -5"));
        assertEquals(new TreeAddress(42), AttributeValues.address("42"));
        assertEquals("100,100", AttributeValues.text(new DtAddress(100, 100)));
        assertEquals(DeliveryMode.FLOOD, AttributeValues.deliveryMode("Flood"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AttributeValues.deliveryMode("1"));
        assertTrue(e.getMessage().contains("numeric codes are refused"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AttributeValues.byteValue("256"));
        assertThrows(IllegalArgumentException.class, () -> AttributeValues.address("here"));
    }

    @Test
    void shouldMatchTimersByIdentifierOrAll() {
        assertTrue(new TimerFilter(3).matches(3));
        assertFalse(new TimerFilter(3).matches(4));
        assertTrue(new TimerFilter(TimerFilter.ANY_TIMER).matches(4));
        assertThrows(IllegalArgumentException.class, () -> new TimerFilter(-2));
    }
}
