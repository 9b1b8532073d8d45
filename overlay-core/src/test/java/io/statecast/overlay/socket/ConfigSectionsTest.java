package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An opaque section bound onto a module's records: the same strictness and field paths as the file. */
class ConfigSectionsTest {

    record Inner(int size) {
        @JsonCreator
        static Inner fromJson(@JsonProperty("size") Long size) {
            return new Inner(ConfigValueException.within("size", size, 4, 1, 10));
        }
    }

    record Section(String name, List<Inner> inners) {
        @JsonCreator
        static Section fromJson(@JsonProperty("name") String name, @JsonProperty("inners") List<Inner> inners) {
            if (name == null) {
                throw new ConfigValueException("name", " is required");
            }
            return new Section(name, inners == null ? List.of() : inners);
        }
    }

    private static OverlayConfigException error(String yaml) throws Exception {
        OverlayConfig c = OverlayConfig.parse("overlay:\n  id: t\n  messageStore: " + yaml + "\n");
        OverlayConfigException e = assertThrows(OverlayConfigException.class,
                () -> ConfigSections.bind(c.messageStore(), Section.class, "overlay.messageStore"));
        assertTrue(e.getMessage().startsWith(e.field()), e.getMessage());
        return e;
    }

    @Test
    void shouldBindASectionOfTheDocument() throws Exception {
        OverlayConfig c = OverlayConfig.parse("overlay:\n  id: t\n  messageStore: {name: n, inners: [{size: 2}, {}]}\n");
        assertEquals(new Section("n", List.of(new Inner(2), new Inner(4))),
                ConfigSections.bind(c.messageStore(), Section.class, "overlay.messageStore"));
    }

    @Test
    void shouldNameTheFieldWithTheSectionsPath() throws Exception {
        assertEquals("overlay.messageStore.inners[1].size=11 must be within 1..10",
                error("{name: n, inners: [{}, {size: 11}]}").getMessage());
        assertEquals("overlay.messageStore.inners[1].size", error("{name: n, inners: [{}, {size: 11}]}").field());
        assertEquals("overlay.messageStore.name is required", error("{inners: []}").getMessage());
        assertEquals("overlay.messageStore.inners[0].size: expected an integer, got '2.5'",
                error("{name: n, inners: [{size: 2.5}]}").getMessage());
        assertEquals("overlay.messageStore.inners[0].size: expected an integer, got 'two'",
                error("{name: n, inners: [{size: two}]}").getMessage());
        assertTrue(error("{name: n, inner: []}").getMessage()
                .startsWith("overlay.messageStore.inner: unknown field (known: inners, name)"));
        assertEquals("overlay.messageStore.inners: expected a list", error("{name: n, inners: 3}").getMessage());
    }
}
