package io.statecast.messagestore.spec;

import java.util.Collection;
import java.util.List;
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
 * </ul>
 * Stateless; one instance serves every executor.
 */
final class LeanSemantics extends SCXMLSemanticsImpl {

    private static final long serialVersionUID = 1L;
    private static final Log APP_LOG = LogFactory.getLog("scxml.app.log");

    /** The shared instance. */
    static final LeanSemantics INSTANCE = new LeanSemantics();

    private LeanSemantics() {
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
