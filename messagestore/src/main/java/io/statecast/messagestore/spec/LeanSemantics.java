package io.statecast.messagestore.spec;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.commons.scxml.ErrorReporter;
import org.apache.commons.scxml.EventDispatcher;
import org.apache.commons.scxml.SCXMLExpressionException;
import org.apache.commons.scxml.model.Action;
import org.apache.commons.scxml.model.ModelException;
import org.apache.commons.scxml.model.OnEntry;
import org.apache.commons.scxml.model.OnExit;
import org.apache.commons.scxml.model.SCXML;
import org.apache.commons.scxml.model.State;
import org.apache.commons.scxml.model.Transition;
import org.apache.commons.scxml.model.TransitionTarget;
import org.apache.commons.scxml.semantics.ErrorConstants;
import org.apache.commons.scxml.SCInstance;
import org.apache.commons.scxml.Status;
import org.apache.commons.scxml.Step;
import org.apache.commons.scxml.TriggerEvent;
import org.apache.commons.scxml.semantics.SCXMLSemanticsImpl;

/**
 * Commons SCXML's semantics without the work a validated spec never needs. Each of these steps
 * allocated per event (sets of events hashed through their {@code toString}, internal event
 * names built in string buffers), which the runtime's budget of about 40 KB per relayed message
 * cannot afford:
 * <ul>
 *   <li>the validator refuses {@code <invoke>} and {@code <history>}: forwarding events to
 *       invokers, starting and cancelling them, and recording history states are no-ops;</li>
 *   <li>actions run as in Commons SCXML — exit actions in exit order, then transition actions,
 *       then entry actions (and the initial transition's, for a compound state entered) in entry
 *       order — but the internal events ({@code id.entry}, {@code id.exit}, {@code id.done}) are
 *       not raised: executors run without supersteps, so they would never be processed, and event
 *       names cannot contain a dot, so no transition could take them. There are no listeners to
 *       notify.</li>
 *   <li>a step from a configuration of one atomic state (every configuration of a spec without
 *       {@code <parallel>}) is looked up in the spec's {@link StepTable}, worked out at load time
 *       with the engine's own rules, instead of enumerating, filtering and following transitions
 *       through a dozen hash sets, sorts and the legal-configuration check; so is the initial
 *       entry. The engine's "done" flags of entered states are not reset on that path: only the
 *       completion events this class does not raise read them. Every other step takes Commons
 *       SCXML's algorithm unchanged.</li>
 * </ul>
 * Immutable; one instance serves every executor of a spec.
 */
final class LeanSemantics extends SCXMLSemanticsImpl {

    private static final long serialVersionUID = 1L;
    private static final Log APP_LOG = LogFactory.getLog("scxml.app.log");

    private final transient StepTable table;

    private LeanSemantics(SCXML model) {
        this.table = model == null ? StepTable.empty() : StepTable.build(model, new SCXMLSemanticsImpl(), comparator());
    }

    /** Semantics whose steps of {@code model} come from its step table where it has them. */
    static LeanSemantics of(SCXML model) {
        return new LeanSemantics(model);
    }

    /** Semantics that compute every step with Commons SCXML's algorithm (for comparison). */
    static LeanSemantics general() {
        return new LeanSemantics(null);
    }

    /** The step table (for tests). */
    StepTable table() {
        return table;
    }

    @SuppressWarnings("unchecked")
    private Comparator<Object> comparator() {
        return getTTComparator();
    }

    /**
     * The precomputed step {@code step} takes, or {@code null} for the general algorithm: only a
     * configuration of one state, without pending internal events, on one external event.
     */
    private StepPlan plan(Step step) {
        Status before = step.getBeforeStatus();
        Set<?> states = before.getStates();
        Collection<?> events = step.getExternalEvents();
        if (states.size() != 1 || events.size() != 1 || !before.getEvents().isEmpty()) {
            return null;
        }
        String name = ((TriggerEvent) events.iterator().next()).getName();
        if (name == null) {
            return null;
        }
        return table.plan(states.iterator().next(), name.trim());
    }

    @Override
    public void determineInitialStates(SCXML input, Set targets, List entryList, ErrorReporter errRep,
            SCInstance scInstance) throws ModelException {
        List<Object> initial = table.initialTargets();
        if (initial == null) {
            super.determineInitialStates(input, targets, entryList, errRep, scInstance);
            return;
        }
        addAll(targets, initial);
        addAll(entryList, table.initialEntries());
    }

    @Override
    public void enumerateReachableTransitions(SCXML stateMachine, Step step, ErrorReporter errRep) {
        StepPlan p = plan(step);
        if (p == null) {
            super.enumerateReachableTransitions(stateMachine, step, errRep);
        } else if (p.transition() != null) {
            step.getTransitList().add(p.transition());
        }
    }

    @Override
    public void filterTransitionsSet(Step step, EventDispatcher evtDispatcher, ErrorReporter errRep,
            SCInstance scInstance) throws ModelException {
        if (plan(step) == null) {
            super.filterTransitionsSet(step, evtDispatcher, errRep, scInstance);
        }
        // else: the table's transition is the one the filter would keep
    }

    @Override
    public void followTransitions(Step step, ErrorReporter errorReporter, SCInstance scInstance)
            throws ModelException {
        StepPlan p = plan(step);
        if (p == null) {
            super.followTransitions(step, errorReporter, scInstance);
            return;
        }
        addAll(step.getExitList(), p.exits());
        addAll(step.getEntryList(), p.entries());
        addAll(step.getAfterStatus().getStates(), p.configuration());
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void addAll(Collection to, List<Object> from) {
        for (int i = 0, n = from.size(); i < n; i++) {
            to.add(from.get(i));
        }
    }

    @Override
    public void processInvokes(TriggerEvent[] events, ErrorReporter errRep, SCInstance scInstance) {
        // no <invoke> in a valid spec
    }

    @Override
    public void initiateInvokes(Step step, ErrorReporter errRep, SCInstance scInstance) {
        // no <invoke> in a valid spec
    }

    @Override
    public void executeActions(Step step, SCXML stateMachine, EventDispatcher dispatcher, ErrorReporter errRep,
            SCInstance scInstance) throws ModelException {
        Collection<?> derived = step.getAfterStatus().getEvents();
        for (Object o : step.getExitList()) {
            OnExit exit = ((TransitionTarget) o).getOnExit();
            if (exit != null) {
                run(exit.getActions(), dispatcher, errRep, scInstance, derived);
            }
        }
        for (Object o : step.getTransitList()) {
            run(((Transition) o).getActions(), dispatcher, errRep, scInstance, derived);
        }
        for (Object o : step.getEntryList()) {
            TransitionTarget tt = (TransitionTarget) o;
            OnEntry entry = tt.getOnEntry();
            if (entry != null) {
                run(entry.getActions(), dispatcher, errRep, scInstance, derived);
            }
            if (tt instanceof State s && s.isComposite() && s.getInitial() != null) {
                run(s.getInitial().getTransition().getActions(), dispatcher, errRep, scInstance, derived);
            }
        }
    }

    private static void run(List<?> actions, EventDispatcher dispatcher, ErrorReporter errRep, SCInstance scInstance,
            Collection<?> derived) throws ModelException {
        for (Object a : actions) {
            try {
                ((Action) a).execute(dispatcher, errRep, scInstance, APP_LOG, derived);
            } catch (SCXMLExpressionException e) {
                errRep.onError(ErrorConstants.EXPRESSION_ERROR, e.getMessage(), a);
            }
        }
    }

    @Override
    public void updateHistoryStates(Step step, ErrorReporter errRep, SCInstance scInstance) {
        // no <history> in a valid spec
    }
}
