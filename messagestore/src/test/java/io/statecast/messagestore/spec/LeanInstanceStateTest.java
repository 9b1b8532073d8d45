package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Executors with trimmed instance state (shared empty history and invoker maps and listener registry)
 * run the engine as before, parallel regions included.
 */
class LeanInstanceStateTest {

    @Test
    void shouldTrimTheExecutorsOfThisJvm() {
        assertTrue(LeanInstanceState.active(), "the lookup of Commons SCXML's fields failed (see the log)");
    }

    @Test
    void shouldRunAParallelStateInSeveralTrimmedExecutors() throws Exception {
        try (SpecLoader loader = new SpecLoader()) {
            ServiceSpec spec = loader.load(TestResources.bytes("lint/clean-hierarchy.scxml"), "clean-hierarchy");
            EngineDriver a = new EngineDriver(spec);
            EngineDriver b = new EngineDriver(spec);
            assertEquals(List.of("setTimer"), a.drain());
            a.fire("ping");
            assertEquals(Set.of("beating", "listening"), a.states());
            assertEquals(List.of("setTimer"), a.drain());
            assertEquals(Set.of("connecting"), b.states(), "executors share no state");
            a.fire("keepalive");
            assertEquals(List.of("sendControlMessage", "setTimer"), a.drain());
            a.fire("bye");
            assertEquals(Set.of("closed"), a.states());
            b.fire("lifetime");
            assertEquals(Set.of("closed"), b.states());
        }
    }
}
