package io.statecast.messagestore.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.SpecGraph.Step;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Steps, hierarchy, parallel regions and timer regions, on the hierarchical lint fixture and the blueprint. */
class SpecGraphTest {

    private static SpecLoader loader;
    private static SpecGraph hierarchy;
    private static SpecGraph h2h;

    @BeforeAll
    static void load() throws SpecException, IOException {
        loader = new SpecLoader();
        hierarchy = SpecGraph.of(load("lint/clean-hierarchy.scxml"));
        h2h = SpecGraph.of(load("specs/blueprint-h2h.scxml"));
    }

    private static ServiceSpec load(String resource) throws SpecException, IOException {
        try (InputStream in = SpecGraphTest.class.getClassLoader().getResourceAsStream(resource)) {
            return loader.load(in, resource);
        }
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    private static Step step(SpecGraph g, String from, String event) {
        return g.stepsFrom(from).stream().filter(s -> event.equals(s.event())).findFirst().orElseThrow();
    }

    @Test
    void shouldEnterTheInitialStateAndItsInitialChildAtTheStart() {
        Step start = hierarchy.start();
        assertEquals(List.of("session", "connecting"), start.entered());
        assertEquals(List.of(Primitive.SET_TIMER), start.actions().stream().map(a -> a.primitive()).toList());
        assertFalse(start.ends());
    }

    @Test
    void shouldOfferTheCompoundStatesTransitionsInItsChildren() {
        Step lifetime = step(hierarchy, "connecting", "lifetime");
        assertTrue(lifetime.ends(), "entering the top-level <final> ends the instance");
        assertEquals(Set.of(), lifetime.after());
        Step ping = step(hierarchy, "connecting", "ping");
        assertEquals(List.of("active", "beating", "listening"), ping.entered());
        assertEquals(List.of(Primitive.SET_TIMER), ping.actions().stream().map(a -> a.primitive()).toList());
        assertEquals(Set.of("session", "active", "beating", "listening"), ping.after());
    }

    @Test
    void shouldTreatTheRegionsOfAParallelStateAsActiveTogether() {
        assertEquals(Set.of("listening"), hierarchy.coActive("beating"));
        assertEquals(Set.of("session", "connecting", "active", "beating", "listening"), hierarchy.reachable());
    }

    @Test
    void shouldOrderExitTransitionAndEntryActions() {
        // waitack -> done on allh2hackmessagesreceived: the transition's cancelTimers, then done's entry setTimer.
        Step s = step(h2h, "waitack", "allh2hackmessagesreceived");
        assertEquals(List.of(Primitive.CANCEL_TIMER, Primitive.CANCEL_TIMER, Primitive.SET_TIMER),
                s.actions().stream().map(a -> a.primitive()).toList());
        Step self = step(h2h, "waitack", "h2hackreqmessage");
        assertEquals(List.of(), self.entered(), "a targetless transition neither exits nor enters");
        assertEquals(Set.of("waitack"), self.after());
    }

    @Test
    void shouldComputeWhereEachBlueprintTimerCanBePending() {
        TimerAnalysis t = TimerAnalysis.of(h2h);
        // Timer 1 (finaldelete) is set on entering init and never cancelled: pending everywhere.
        TimerAnalysis.SetSite finalDelete = t.sets().stream().filter(s -> s.id().equals(OptionalInt.of(1)))
                .findFirst().orElseThrow();
        assertEquals(Set.of("init", "waitack", "nopayload", "done", "reset"), finalDelete.region());
        assertEquals(Set.of("init"), t.handlingStates(finalDelete));
        // Timer 5 (msgtimeout) is set on entering done, which only leaves for reset.
        TimerAnalysis.SetSite msg = t.sets().stream().filter(s -> s.id().equals(OptionalInt.of(5))).findFirst()
                .orElseThrow();
        assertEquals(Set.of("done", "reset"), msg.region());
    }
}
