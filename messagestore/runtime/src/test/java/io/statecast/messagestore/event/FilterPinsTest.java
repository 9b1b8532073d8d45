package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilterPinsTest {

    private static final LogicalAddress SELF = new TreeAddress(7);
    private static final LogicalAddress PEER = new TreeAddress(3);

    @Test
    void anEmptyFilterPinsNothingAndMeansAData() {
        FilterPins p = FilterPins.of(new MessageFilter(List.of()), SELF);
        assertNull(p.mode());
        assertNull(p.messageId());
        assertNull(p.source());
        assertTrue(p.carriesPayload());
        assertEquals(FsmExtension.PAYLOAD_TYPE, p.messageType());
        assertEquals(2, p.extensions(5, 9, new byte[4]).size());
    }

    @Test
    void aControlFilterGetsTypeOneAndNoPayload() {
        FilterPins p = FilterPins.of(new MessageFilter(List.of(new AttributeTest.KindIs(false))), SELF);
        assertFalse(p.carriesPayload());
        assertEquals(1, p.messageType());
        assertEquals(List.of(new FsmExtension(5, (byte) 1, 9)), p.extensions(5, 9, new byte[4]));
    }

    @Test
    void everyTestPinsItsAttributeAndLocalMeansTheEvaluatingNode() {
        MessageFilter f = new MessageFilter(List.of(new AttributeTest.MessageTypeIs((byte) 4),
                new AttributeTest.ServiceIdIs(12), new AttributeTest.MessageIdIs(44),
                new AttributeTest.DeliveryModeIs(DeliveryMode.UNICAST), new AttributeTest.HopLimitIs(3),
                new AttributeTest.AddressIs(MessageAttribute.SOURCE_ADDRESS, PEER),
                new AttributeTest.AddressIs(MessageAttribute.DESTINATION_ADDRESS, null)));
        FilterPins p = FilterPins.of(f, SELF);
        assertEquals(DeliveryMode.UNICAST, p.mode());
        assertEquals(3, p.hopLimit());
        assertEquals(44L, p.messageId());
        assertEquals(PEER, p.source());
        assertEquals(SELF, p.destination());
        assertFalse(p.carriesPayload(), "type 4 is a control type");
        OverlayMessage m = new OverlayMessage(p.mode(), p.hopLimit(), p.source(), p.destination(), PEER, null,
                p.extensions(1, p.messageId(), new byte[0]));
        assertTrue(f.matches(m, SELF), "a message built from the pins must pass the filter");
    }

    @Test
    void aPinnedDataKindKeepsThePayloadWhateverTheType() {
        FilterPins p = FilterPins.of(new MessageFilter(List.of(new AttributeTest.KindIs(true))), SELF);
        assertTrue(p.carriesPayload());
        assertTrue(p.extensions(1, 1, new byte[2]).get(1) instanceof PayloadExtension);
    }

    @Test
    void addressesOfAnotherFamilyAreDropped() {
        assertNull(FilterPins.ofFamily(LogicalAddress.Family.TREE, new DtAddress(1, 2)));
        assertEquals(PEER, FilterPins.ofFamily(LogicalAddress.Family.TREE, PEER));
        assertNull(FilterPins.ofFamily(LogicalAddress.Family.TREE, null));
    }
}
