package io.statecast.messagestore.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Drives one machine of a spec and records what its actions ask for. */
final class EngineDriver {

    final List<ActionTemplate> recorded = new ArrayList<>();
    final ServiceSpec spec;
    final MachineState machine;

    EngineDriver(ServiceSpec spec) {
        this.spec = spec;
        machine = spec.newMachine(recorded::add);
        machine.start();
    }

    void fire(String event) {
        machine.fire(spec.chartEvent(event));
    }

    Set<String> states() {
        return new TreeSet<>(machine.states());
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
