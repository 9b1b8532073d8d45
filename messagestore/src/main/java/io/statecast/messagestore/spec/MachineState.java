package io.statecast.messagestore.spec;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.commons.scxml.SCXMLExecutor;
import org.apache.commons.scxml.model.ModelException;

/**
 * Where one instance's state machine is: its current configuration, and a Commons SCXML executor
 * only from the first step the spec's step table cannot decide.
 *
 * <p>Most instances of the shipped services never need the engine: every step they take starts
 * from one atomic state and runs only primitive actions, so the table decides it (see
 * {@link ServiceSpec#stepDirectly}). For those the configuration is one reference. An executor and
 * its {@code SCInstance}, status and maps — about 600 bytes and a dozen objects, which a lingering
 * instance would otherwise carry through every young collection — are made the moment a step
 * needs them, started in the configuration the table left, which is the state an executor that
 * had taken the same direct steps would be in (nothing else of it is written by those steps).
 *
 * <p>Confined to the instance's thread.
 */
public final class MachineState {

    private final ServiceSpec spec;
    private final ActionSink sink;
    /** The one atomic state while there is no executor; {@code null} before the start and after. */
    private Object atomic;
    private SCXMLExecutor executor;

    MachineState(ServiceSpec spec, ActionSink sink) {
        this.spec = spec;
        this.sink = sink;
    }

    /**
     * Enters the initial configuration; its entry actions reach the sink.
     *
     * @throws ModelException from the engine, when it had to start the machine
     */
    public void start() throws ModelException {
        if (atomic != null || executor != null) {
            throw new IllegalStateException("already started");
        }
        StepTable table = spec.table();
        List<Object> targets = table.initialTargets();
        List<ExecuteAction> program = table.initialProgram();
        if (targets != null && targets.size() == 1 && program != null && ServiceSpec.run(program, sink)) {
            atomic = targets.get(0);
            return;
        }
        SCXMLExecutor e = spec.newExecutor(sink);
        executor = e;
        if (!spec.startDirectly(e, sink)) {
            e.go();
        }
    }

    /**
     * Takes the step of {@code event} without the engine when the step table decides it (the
     * actions reach the sink); an event that selects no transition changes nothing.
     *
     * @return false when nothing was done: trigger the event on {@link #engine()}
     */
    public boolean stepDirectly(String event) {
        if (executor != null) {
            return spec.stepDirectly(executor, event, sink);
        }
        if (atomic == null) {
            return false;
        }
        StepPlan p = spec.takeStep(atomic, event, sink);
        if (p == null) {
            return false;
        }
        if (p.transition() == null) {
            return true;
        }
        List<Object> next = p.configuration();
        if (next.size() == 1) {
            atomic = next.get(0);
        } else {
            engineIn(next);
        }
        return true;
    }

    /**
     * The engine, made now in the current configuration if no step needed it before.
     *
     * @throws IllegalStateException before {@link #start()}
     */
    public SCXMLExecutor engine() {
        if (executor == null) {
            if (atomic == null) {
                throw new IllegalStateException("not started");
            }
            engineIn(List.of(atomic));
        }
        return executor;
    }

    private void engineIn(Collection<Object> configuration) {
        SCXMLExecutor e = spec.newExecutor(sink);
        @SuppressWarnings("unchecked")
        Set<Object> states = e.getCurrentStatus().getStates();
        states.addAll(configuration);
        executor = e;
        atomic = null;
    }

    /** The current atomic states ({@code TransitionTarget}s); empty before the start. */
    public Collection<?> states() {
        if (executor != null) {
            return executor.getCurrentStatus().getStates();
        }
        return atomic == null ? List.of() : List.of(atomic);
    }

    /** Whether the machine is in one of the spec's declared in-flight states. */
    public boolean inFlight() {
        return atomic != null ? spec.inFlightState(atomic) : executor != null && spec.inFlight(executor);
    }

    /** Whether every current state is a top-level final state: the instance has finished. */
    public boolean inFinalState() {
        return atomic != null ? ServiceSpec.topLevelFinal(atomic) : executor != null && ServiceSpec.inFinalState(executor);
    }

    /** Whether the engine was needed (for tests and footprint reports). */
    public boolean usesEngine() {
        return executor != null;
    }
}
