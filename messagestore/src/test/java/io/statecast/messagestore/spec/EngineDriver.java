package io.statecast.messagestore.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.scxml.SCXMLExecutor;
import org.apache.commons.scxml.TriggerEvent;
import org.apache.commons.scxml.model.ModelException;
import org.apache.commons.scxml.model.TransitionTarget;

/** Drives one executor of a spec and records what its actions ask for. */
final class EngineDriver {

    final List<ActionTemplate> recorded = new ArrayList<>();
    final SCXMLExecutor executor;

    EngineDriver(ServiceSpec spec) throws ModelException {
        executor = spec.newExecutor(recorded::add);
        executor.go();
    }

    void fire(String event) throws ModelException {
        executor.triggerEvent(new TriggerEvent(event, TriggerEvent.SIGNAL_EVENT));
    }

    Set<String> states() {
        Set<String> ids = new TreeSet<>();
        for (Object o : executor.getCurrentStatus().getStates()) {
            ids.add(((TransitionTarget) o).getId());
        }
        return ids;
    }

    /** The primitives recorded since the last call, by spec name. */
    List<String> drain() {
        List<String> names = new ArrayList<>();
        for (ActionTemplate t : recorded) {
            names.add(t.primitive().specName());
        }
        recorded.clear();
        return names;
    }
}
