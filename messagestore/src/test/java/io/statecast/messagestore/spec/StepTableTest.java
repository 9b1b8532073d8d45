package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.commons.scxml.SCXMLExecutor;
import org.apache.commons.scxml.TriggerEvent;
import org.apache.commons.scxml.model.ModelException;
import org.apache.commons.scxml.model.State;
import org.apache.commons.scxml.model.TransitionTarget;
import org.junit.jupiter.api.Test;

/**
 * The step table ({@link StepTable}) against Commons SCXML's general algorithm: two executors of
 * the same spec, one with the table and one without, take the same random event sequences and
 * must ask for the same actions in the same order and end in the same states after every event.
 * Run over the shipped services and every loadable spec among the test resources.
 */
class StepTableTest {

    private static final int SEQUENCES = Boolean.getBoolean("statecast.soak") ? 2_000 : 60;
    private static final int LENGTH = 40;
    private static final Path SHIPPED = Path.of("..", "services", "src", "main", "resources", "services");

    @Test
    void shouldTakeTheSameStepsAsTheGeneralAlgorithmOnTheShippedServices() throws Exception {
        List<Path> files = scxmlFiles(SHIPPED);
        assertTrue(files.size() >= 5, "shipped services found under " + SHIPPED.toAbsolutePath() + ": " + files);
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        try (SpecLoader loader = new SpecLoader()) {
            for (Path f : files) {
                ServiceSpec spec = loader.load(f);
                assertEveryStepCovered(spec);
                int direct = compareCounting(spec, new Random(seed), seed);
                assertTrue(direct > SEQUENCES, spec.source() + ": only " + direct + " events stepped directly (seed " + seed + ")");
            }
        }
    }

    @Test
    void shouldTakeTheSameStepsAsTheGeneralAlgorithmOnTheTestSpecs() throws Exception {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        int loaded = 0;
        try (SpecLoader loader = new SpecLoader()) {
            for (String dir : List.of("specs", "check", "lint", "steps")) {
                for (Path f : scxmlFiles(TestResources.path(dir))) {
                    ServiceSpec spec;
                    try {
                        spec = loader.load(f);
                    } catch (SpecException e) {
                        continue; // a spec the validator refuses never runs
                    }
                    loaded++;
                    compare(spec, new Random(seed), seed);
                }
            }
        }
        assertTrue(loaded >= 15, "only " + loaded + " test specs loaded");
    }

    @Test
    void shouldStartDirectlyOnlyOnce() throws Exception {
        ServiceSpec spec;
        try (SpecLoader loader = new SpecLoader()) {
            spec = loader.load(SHIPPED.resolve("h2h-ack.scxml"));
        }
        List<ActionTemplate> actions = new ArrayList<>();
        ActionSink sink = actions::add;
        SCXMLExecutor executor = spec.newExecutor(sink);
        assertTrue(spec.startDirectly(executor, sink));
        assertEquals(Set.of("init"), states(executor));
        int queued = actions.size();
        assertFalse(spec.startDirectly(executor, sink), "an executor that has started is not started again");
        assertEquals(queued, actions.size());
        assertEquals(Set.of("init"), states(executor));
    }

    @Test
    void shouldRunAnInstanceOfTheShippedHopToHopServiceWithoutAnEngine() throws Exception {
        ServiceSpec spec;
        try (SpecLoader loader = new SpecLoader()) {
            spec = loader.load(SHIPPED.resolve("h2h-ack.scxml"));
        }
        List<ActionTemplate> actions = new ArrayList<>();
        MachineState machine = spec.newMachine(actions::add);
        assertThrows(IllegalStateException.class, machine::engine, "no engine before the start");
        machine.start();
        assertTrue(machine.inFlight(), "init is declared in flight");
        assertTrue(machine.stepDirectly("own"));
        assertEquals(Set.of("srcmayretransmit"), ids(machine.states()));
        assertTrue(machine.stepDirectly("allh2hackmessagesreceived"));
        assertEquals(Set.of("end"), ids(machine.states()), "the source ends once acknowledged");
        assertTrue(machine.inFinalState());
        assertFalse(machine.usesEngine(), "the source's whole life is decided by the step table");
        assertThrows(IllegalStateException.class, machine::start, "a machine starts once");
    }

    @Test
    void shouldMakeTheEngineInTheConfigurationTheTableLeft() throws Exception {
        ServiceSpec spec;
        try (SpecLoader loader = new SpecLoader()) {
            spec = loader.load(TestResources.bytes("lint/clean-hierarchy.scxml"), "clean-hierarchy");
        }
        MachineState asked = spec.newMachine(a -> { });
        asked.start();
        assertEquals(Set.of("connecting"), ids(asked.states()));
        assertFalse(asked.usesEngine());
        SCXMLExecutor engine = asked.engine();
        assertTrue(asked.usesEngine());
        assertEquals(Set.of("connecting"), states(engine), "made in the current configuration");
        assertSame(engine, asked.engine(), "made once");

        MachineState parallel = spec.newMachine(a -> { });
        parallel.start();
        assertTrue(parallel.stepDirectly("ping"), "entering the parallel state is in the table");
        assertTrue(parallel.usesEngine(), "two atomic states: the engine holds them");
        assertEquals(Set.of("beating", "listening"), ids(parallel.states()));
    }

    @Test
    void shouldLeaveStepsInsideAParallelStateToTheGeneralAlgorithm() throws Exception {
        ServiceSpec spec;
        try (SpecLoader loader = new SpecLoader()) {
            spec = loader.load(TestResources.bytes("lint/clean-hierarchy.scxml"), "clean-hierarchy");
        }
        StepTable table = LeanSemantics.of(spec.model()).table();
        TransitionTarget connecting = (TransitionTarget) spec.model().getTargets().get("connecting");
        TransitionTarget beating = (TransitionTarget) spec.model().getTargets().get("beating");
        assertTrue(table.covers(connecting));
        StepPlan enter = table.plan(connecting, "ping");
        assertNotNull(enter, "entering the parallel state from one state is precomputed");
        assertEquals(Set.of("beating", "listening"), ids(enter.configuration()));
        assertEquals(List.of("active", "beating", "listening"), idList(enter.entries()));
        assertEquals(List.of("connecting"), idList(enter.exits()));
        // from inside the parallel the configuration has two states: never looked up, but the table
        // still answers for the state alone as Commons would for that (unreachable) configuration
        assertTrue(table.covers(beating));
        assertEquals(null, table.plan(connecting, "nosuchevent").transition());
    }

    @Test
    void shouldPickTheInnermostTransitionAndRunActionsInEngineOrder() throws Exception {
        ServiceSpec spec;
        try (SpecLoader loader = new SpecLoader()) {
            spec = loader.load(TestResources.bytes("steps/nested.scxml"), "nested");
        }
        EngineDriver d = new EngineDriver(spec);
        assertEquals(Set.of("a1"), d.states());
        assertEquals(List.of("setTimer", "setTimer"), d.drain(), "entry of outer then of a1");
        d.fire("tick");
        assertEquals(Set.of("a1"), d.states(), "a1's targetless transition wins over outer's");
        assertEquals(List.of("cancelTimer"), d.drain());
        d.fire("go");
        assertEquals(Set.of("b2"), d.states());
        assertEquals(List.of("terminate", "toApplication", "setTimer"), d.drain(),
                "exit a1, transition, entry b (initial b2 has no actions)");
        d.fire("tick");
        assertEquals(Set.of("b2"), d.states(), "outer's targetless transition applies in b2");
        assertEquals(List.of("toApplication"), d.drain());
        d.fire("again");
        assertEquals(Set.of("a1"), d.states(), "self transition of outer re-enters it");
        assertEquals(List.of("setTimer", "setTimer"), d.drain(), "exits have no actions; entries outer, a1");
        d.fire("stop");
        assertEquals(Set.of("end"), d.states());
        assertTrue(LeanSemantics.of(spec.model()).table().covers(
                (TransitionTarget) spec.model().getTargets().get("b2")));
    }

    @Test
    void shouldBoundTheTableAndLeaveTheRestToTheGeneralAlgorithm() throws Exception {
        int n = 300; // 300 states each seeing 300 transitions of their parent: past MAX_PLANS
        StringBuilder x = new StringBuilder();
        x.append("<scxml version=\"1.0\" xmlns=\"http://www.w3.org/2005/07/scxml\" ")
                .append("xmlns:action=\"http://my.custom-actions.domain/action\" initialstate=\"hub\"><datamodel>")
                .append("<data name=\"service\"><ServiceName>wide</ServiceName><ServiceID>43</ServiceID>")
                .append("<DeliveryMode>unicast</DeliveryMode></data><data name=\"events\"><Basic>");
        for (int i = 0; i < n; i++) {
            x.append("<Event name=\"e").append(i).append("\"><Timer><TimerIdentifier>").append(i + 1)
                    .append("</TimerIdentifier></Timer></Event>");
        }
        x.append("</Basic></data></datamodel><state id=\"hub\" initial=\"s0\">");
        for (int i = 0; i < n; i++) {
            x.append("<transition event=\"e").append(i).append("\" target=\"s").append(i).append("\"/>");
        }
        for (int i = 0; i < n; i++) {
            x.append("<state id=\"s").append(i).append("\"/>");
        }
        x.append("</state></scxml>");
        ServiceSpec spec;
        try (SpecLoader loader = new SpecLoader()) {
            spec = loader.load(x.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "wide");
        }
        StepTable table = LeanSemantics.of(spec.model()).table();
        int covered = 0;
        for (int i = 0; i < n; i++) {
            if (table.covers((TransitionTarget) spec.model().getTargets().get("s" + i))) {
                covered++;
            }
        }
        assertTrue(covered > 0 && covered < n, covered + " of " + n + " states in the table");
        assertTrue(covered * (n + 1) <= StepTable.MAX_PLANS, covered + " states");
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        compare(spec, new Random(seed), seed);
    }

    /** Every atomic state of a spec without parallel states steps through the table. */
    private static void assertEveryStepCovered(ServiceSpec spec) {
        StepTable table = LeanSemantics.of(spec.model()).table();
        assertNotNull(table.initialTargets(), spec.source() + ": initial entry precomputed");
        for (Object o : spec.model().getTargets().values()) {
            if (o instanceof State s && s.isSimple()) {
                assertTrue(table.covers(s), spec.source() + ": state " + s.getId() + " steps through the table");
            }
        }
    }

    private static void compare(ServiceSpec spec, Random random, long seed) throws ModelException {
        compareCounting(spec, random, seed);
    }

    /**
     * Runs the comparison with three executors — step table, general algorithm, and
     * {@link ServiceSpec#stepDirectly} falling back to the table — and a {@link MachineState}
     * (no executor until a step needs one), and returns how many events the direct step took on
     * its own.
     */
    private static int compareCounting(ServiceSpec spec, Random random, long seed) throws ModelException {
        List<String> events = new ArrayList<>();
        for (SpecStructure.TransitionInfo t : spec.structure().transitions()) {
            if (t.event() != null && !events.contains(t.event())) {
                events.add(t.event());
            }
        }
        events.add("undeclared");
        assertFalse(events.isEmpty());
        int direct = 0;
        for (int run = 0; run < SEQUENCES; run++) {
            List<ActionTemplate> fastActions = new ArrayList<>();
            List<ActionTemplate> generalActions = new ArrayList<>();
            List<ActionTemplate> directActions = new ArrayList<>();
            ActionSink directSink = directActions::add;
            SCXMLExecutor fast = spec.newExecutor(fastActions::add);
            SCXMLExecutor general = spec.newExecutor(generalActions::add, LeanSemantics.general());
            SCXMLExecutor directly = spec.newExecutor(directSink);
            List<ActionTemplate> machineActions = new ArrayList<>();
            MachineState machine = spec.newMachine(machineActions::add);
            String context = spec.source() + " (seed " + seed + ", sequence " + run + ")";
            String fastError = step(fast, null);
            String generalError = step(general, null);
            String directError;
            if (spec.startDirectly(directly, directSink)) {
                directError = null;
                direct++;
            } else {
                directError = step(directly, null);
            }
            String machineError = start(machine);
            assertEquals(generalError, fastError, context + ": start");
            assertEquals(generalError, directError, context + ": start");
            assertEquals(generalError, machineError, context + ": start");
            assertEquals(generalActions, fastActions, context + ": start");
            assertEquals(generalActions, directActions, context + ": start");
            assertEquals(generalActions, machineActions, context + ": start");
            assertEquals(states(general), states(fast), context + ": start");
            assertEquals(states(general), states(directly), context + ": start");
            assertMachineIs(spec, general, machine, context + ": start");
            List<String> fired = new ArrayList<>();
            for (int i = 0; i < LENGTH; i++) {
                String event = events.get(random.nextInt(events.size()));
                fired.add(event);
                fastActions.clear();
                generalActions.clear();
                directActions.clear();
                machineActions.clear();
                fastError = step(fast, event);
                generalError = step(general, event);
                if (spec.stepDirectly(directly, event, directSink)) {
                    directError = null;
                    direct++;
                } else {
                    directError = step(directly, event);
                }
                machineError = step(machine, event);
                assertEquals(generalError, fastError, context + " after " + fired);
                assertEquals(generalError, directError, context + " after " + fired);
                assertEquals(generalError, machineError, context + " after " + fired + " (machine)");
                assertEquals(generalActions, machineActions, context + " after " + fired + " (machine)");
                assertMachineIs(spec, general, machine, context + " after " + fired + " (machine)");
                assertEquals(generalActions, fastActions, context + " after " + fired);
                assertEquals(generalActions, directActions, context + " after " + fired + " (direct step)");
                assertEquals(states(general), states(fast), context + " after " + fired);
                assertEquals(states(general), states(directly), context + " after " + fired + " (direct step)");
            }
        }
        return direct;
    }

    private static String start(MachineState machine) {
        try {
            machine.start();
            return null;
        } catch (ModelException | RuntimeException e) {
            return e.toString();
        }
    }

    /** Steps the machine as an instance does: directly, else on its engine. */
    private static String step(MachineState machine, String event) {
        if (machine.stepDirectly(event)) {
            return null;
        }
        return step(machine.engine(), event);
    }

    private static void assertMachineIs(ServiceSpec spec, SCXMLExecutor general, MachineState machine,
            String context) {
        assertEquals(states(general), ids(machine.states()), context);
        assertEquals(ServiceSpec.inFinalState(general), machine.inFinalState(), context + ": final");
        assertEquals(spec.inFlight(general), machine.inFlight(), context + ": in flight");
    }

    /** Starts ({@code event == null}) or steps the executor; the engine's complaint, if any. */
    private static String step(SCXMLExecutor executor, String event) {
        try {
            if (event == null) {
                executor.go();
            } else {
                executor.triggerEvent(new TriggerEvent(event, TriggerEvent.SIGNAL_EVENT));
            }
            return null;
        } catch (ModelException | RuntimeException e) {
            return e.toString();
        }
    }

    private static Set<String> states(SCXMLExecutor executor) {
        return ids(executor.getCurrentStatus().getStates());
    }

    private static Set<String> ids(Iterable<?> states) {
        Set<String> ids = new TreeSet<>();
        for (Object o : states) {
            ids.add(((TransitionTarget) o).getId());
        }
        return ids;
    }

    private static List<String> idList(List<Object> states) {
        List<String> ids = new ArrayList<>();
        for (Object o : states) {
            ids.add(((TransitionTarget) o).getId());
        }
        return ids;
    }

    private static List<Path> scxmlFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".scxml")).sorted().toList();
        }
    }
}
