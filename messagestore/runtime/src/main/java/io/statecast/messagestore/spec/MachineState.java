package io.statecast.messagestore.spec;

import io.statecast.messagestore.chart.ChartEvent;
import io.statecast.messagestore.chart.ChartHost;
import io.statecast.messagestore.chart.ChartLimit;
import io.statecast.messagestore.chart.ChartLimits;
import io.statecast.messagestore.chart.Session;
import io.statecast.messagestore.event.DatamodelValues;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One instance's state machine: a {@link Session} of the spec's compiled chart, whose
 * {@code action:execute}s reach the instance's {@link ActionSink} and whose errors are counted on
 * the spec. Confined to the instance's thread.
 */
public final class MachineState implements ChartHost {

    private static final Logger LOG = LoggerFactory.getLogger(MachineState.class);

    private final ServiceSpec spec;
    private final ActionSink sink;
    private final MachineContext timers;
    private final Session session;
    /** The datamodel as the spec's queries read it; made on first use, never for a spec without data. */
    private DatamodelValues datamodel;

    MachineState(ServiceSpec spec, ActionSink sink, MachineContext timers) {
        this.spec = spec;
        this.sink = sink;
        this.timers = timers;
        this.session = new Session(spec.chart(), this, limits(), null);
    }

    /** The bounds every machine runs within ({@link ChartLimits#DEFAULTS}). */
    public static ChartLimits limits() {
        return ChartLimits.DEFAULTS;
    }

    /**
     * The machine's datamodel variables by index in {@link ServiceSpec#dataIds()}, for the spec's
     * composite queries and action XPaths; {@link DatamodelValues#NONE} when the spec has none.
     * Reads current values: ask it between steps, not keep values from it.
     */
    public DatamodelValues datamodel() {
        DatamodelValues d = datamodel;
        if (d == null) {
            List<String> ids = spec.dataIds();
            d = datamodel = ids.isEmpty() ? DatamodelValues.NONE : session.datamodelValues(ids);
        }
        return d;
    }

    /** Enters the initial configuration; its entry actions reach the sink. */
    public void start() {
        session.start();
    }

    /**
     * Processes one event (a basic or composite event of the spec); its actions reach the sink.
     * An event that selects no transition changes nothing.
     */
    public void fire(ChartEvent event) {
        session.process(event);
        session.processExternal();
    }

    /**
     * Runs a task of {@link MachineContext#schedule} that fell due (it queues a delayed event),
     * then processes what it queued; its actions reach the sink.
     */
    public void runDelayed(Runnable task) {
        task.run();
        session.processExternal();
    }

    /**
     * Puts a machine that was never started into the configuration of these atomic states (the
     * model checker's snapshots).
     */
    public void restore(List<String> atomicStates) {
        session.restore(atomicStates);
    }

    /** The spec's parameter values (defaults or the deployment's overrides): {@code $Name} in the datamodel. */
    @Override
    public String parameter(String name) {
        return spec.parameters().contains(name) ? spec.parameters().value(name) : null;
    }

    /** The ids of the current atomic states; empty before the start. */
    public List<String> states() {
        return session.activeAtomicStates();
    }

    /** Whether the machine is in one of the spec's declared in-flight states. */
    public boolean inFlight() {
        return spec.inFlight(session);
    }

    /**
     * The bound whose excess stopped the machine ({@link ChartLimit}), or {@code null}: a stopped
     * machine has exited its states, cancelled its delayed sends and takes no more events.
     */
    public ChartLimit stoppedBy() {
        return session.stoppedBy();
    }

    /** The atomic states the machine was in when a limit stopped it; empty if none did. */
    public List<String> stoppedIn() {
        return session.stoppedIn();
    }

    /** Whether the machine reached a top-level final state: the instance has finished. */
    public boolean inFinalState() {
        return session.finalState() != null;
    }


    @Override
    public void custom(Object payload) {
        sink.enqueue((ActionTemplate) payload);
    }

    @Override
    public void log(String label, String value) {
        if ("error".equals(label)) {
            spec.engineError(value);
        } else if (LOG.isInfoEnabled()) {
            LOG.info("service {}: {}: {}", spec.service().name(), label, value);
        }
    }

    @Override
    public Object schedule(long delayMillis, Runnable task) {
        return timers.schedule(delayMillis, task);
    }

    @Override
    public void cancel(Object handle) {
        timers.cancel(handle);
    }

    @Override
    public net.sf.saxon.s9api.XdmValue platform(Session s) {
        return timers.platform();
    }

    @Override
    public Object platformEntry(Session s, String key) {
        return timers.platformEntry(key);
    }

    @Override
    public Object platformLookup(Session s, String map, String key) {
        return timers.platformLookup(map, key);
    }

    @Override
    public Object[] platformValues(Session s, String map) {
        return timers.platformValues(map);
    }

    @Override
    public java.util.List<Object> historyItems(Session s, io.statecast.messagestore.event.CompiledExpression read,
            DatamodelValues data) {
        return timers.historyItems(read, data);
    }

    @Override
    public String sessionId(Session s) {
        return spec.service().name() + "-" + Integer.toHexString(System.identityHashCode(this));
    }
}
