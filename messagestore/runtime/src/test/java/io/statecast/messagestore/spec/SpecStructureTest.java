package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.statecast.messagestore.spec.SpecStructure.StateInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What SpecStructure tells tools beyond states and transitions: entry, exit and initial actions, section lines. */
class SpecStructureTest {

    private static StateInfo state(ServiceSpec s, String id) {
        return s.structure().states().stream().filter(i -> i.id().equals(id)).findFirst().orElseThrow();
    }

    private static List<Primitive> primitives(List<ActionTemplate> actions) {
        return actions.stream().map(ActionTemplate::primitive).toList();
    }

    @Test
    void shouldCarryEachStatesEntryAndExitActionsAndTheSectionLines() throws SpecException {
        try (SpecLoader loader = new SpecLoader()) {
            ServiceSpec h2h = loader.load(TestResources.bytes("specs/blueprint-h2h.scxml"), "h2h");
            assertEquals(List.of(Primitive.SET_TIMER), primitives(state(h2h, "init").onentry()));
            assertEquals(List.of(Primitive.SEND_CONTROL_MESSAGE, Primitive.SET_TIMER, Primitive.SET_TIMER),
                    primitives(state(h2h, "reset").onentry()));
            assertEquals(List.of(), state(h2h, "waitack").onentry());
            assertEquals(List.of(), state(h2h, "waitack").onexit());
            assertNull(state(h2h, "init").initial());
            assertEquals(Map.of("service", 16, "metaops", 27, "parameters", 34, "events", 45),
                    h2h.structure().sectionLines());
            ServiceSpec nested = loader.load(TestResources.bytes("lint/clean-hierarchy.scxml"), "nested");
            assertEquals("connecting", state(nested, "session").initial());
            assertEquals(List.of(Primitive.SET_TIMER), primitives(state(nested, "beating").onentry()));
        }
    }

    @Test
    void shouldKeepTheOldConstructors() {
        StateInfo s = new StateInfo("a", SpecStructure.StateKind.STATE, null, 3);
        assertEquals(List.of(), s.onentry());
        assertEquals(Map.of(), new SpecStructure("a", List.of(s), List.of()).sectionLines());
    }
}
