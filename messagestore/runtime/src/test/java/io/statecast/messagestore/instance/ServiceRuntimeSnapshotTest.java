package io.statecast.messagestore.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.statecast.messagestore.event.NodeSnapshot;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.address.TreeAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Instances of a service share equal node snapshots instead of holding a copy each. */
class ServiceRuntimeSnapshotTest {

    private final ServiceRuntime runtime = new ServiceRuntime(Specs.load("specs/blueprint-h2h.scxml"));

    @Test
    void shouldReturnTheEarlierEqualSnapshotAndTakeADifferentOne() {
        NodeSnapshot first = snapshot(2, 3);
        assertSame(first, runtime.canonical(first));
        assertSame(first, runtime.canonical(snapshot(2, 3)), "an equal view is the earlier snapshot");
        NodeSnapshot changed = snapshot(2);
        assertSame(changed, runtime.canonical(changed), "a changed view is kept as it is");
        assertSame(changed, runtime.canonical(snapshot(2)));
        assertEquals(first, runtime.canonical(snapshot(2, 3)));
    }

    private static NodeSnapshot snapshot(int... children) {
        List<io.statecast.overlay.address.LogicalAddress> kids = new ArrayList<>();
        for (int c : children) {
            kids.add(new TreeAddress(c));
        }
        return new NodeSnapshot(new TreeAddress(9), new TreeAddress(100), new TreeAddress(5), kids, List.of());
    }
}
