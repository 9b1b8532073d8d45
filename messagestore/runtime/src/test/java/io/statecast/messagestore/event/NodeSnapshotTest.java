package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeSnapshotTest {

    private static LogicalAddress t(long id) {
        return new TreeAddress(id);
    }

    private static NodeSnapshot snap(LogicalAddress parent, List<LogicalAddress> children, List<LogicalAddress> nbrs) {
        return new NodeSnapshot(t(2), t(1), parent, new ArrayList<>(children), new ArrayList<>(nbrs));
    }

    @Test
    void shouldBeEqualByContentWithAConsistentHash() {
        NodeSnapshot a = snap(t(1), List.of(t(3), t(4)), List.of(t(1), t(3), t(4)));
        NodeSnapshot b = snap(t(1), List.of(t(3), t(4)), List.of(t(1), t(3), t(4)));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        NodeSnapshot rootless = snap(null, List.of(), List.of());
        assertEquals(rootless, snap(null, List.of(), List.of()));
    }

    @Test
    void shouldDifferInEveryComponent() {
        NodeSnapshot a = snap(t(1), List.of(t(3), t(4)), List.of(t(1), t(3)));
        assertNotEquals(a, snap(null, List.of(t(3), t(4)), List.of(t(1), t(3))), "parent");
        assertNotEquals(snap(null, List.of(), List.of()), snap(t(1), List.of(), List.of()), "parent, other side");
        assertNotEquals(a, snap(t(1), List.of(t(4), t(3)), List.of(t(1), t(3))), "children's order");
        assertNotEquals(a, snap(t(1), List.of(t(3)), List.of(t(1), t(3))), "children's number");
        assertNotEquals(a, snap(t(1), List.of(t(3), t(4)), List.of(t(1), t(5))), "neighbours");
        assertNotEquals(a, new NodeSnapshot(t(9), t(1), t(1), List.of(t(3), t(4)), List.of(t(1), t(3))), "self");
        assertNotEquals(a, new NodeSnapshot(t(2), t(9), t(1), List.of(t(3), t(4)), List.of(t(1), t(3))), "root");
        assertNotEquals(a, "not a snapshot");
    }
}
