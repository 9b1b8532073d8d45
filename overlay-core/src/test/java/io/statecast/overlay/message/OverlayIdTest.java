package io.statecast.overlay.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class OverlayIdTest {

    /** Expected values computed outside Java: {@code printf '%s' ID | sha256sum | cut -c1-8}. */
    @Test
    void shouldHashToTheFirstFourBytesOfSha256OfUtf8() {
        assertEquals(0xcc8fba4a, OverlayId.wireHash("statecast"));
        assertEquals(0x13758e3c, new OverlayId("demo-overlay").wireHash());
        assertEquals(0xe3b0c442, OverlayId.wireHash(""));
        assertEquals(0x607474ca, OverlayId.wireHash("\u00fc"), "UTF-8, not the platform charset");
    }

    @Test
    void shouldSeparateIdsThatStringHashCodeConfuses() {
        assertEquals("Aa".hashCode(), "BB".hashCode());
        assertNotEquals(OverlayId.wireHash("Aa"), OverlayId.wireHash("BB"));
    }

    @Test
    void shouldRefuseAnEmptyId() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new OverlayId(""));
        assertEquals("overlay ID must not be empty", e.getMessage());
    }
}
