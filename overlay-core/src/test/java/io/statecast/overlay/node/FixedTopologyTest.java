package io.statecast.overlay.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FixedTopologyTest {

    private static final TreeAddress SELF = new TreeAddress(5);
    private static final TreeAddress P = new TreeAddress(1);
    private static final TreeAddress C1 = new TreeAddress(11);
    private static final TreeAddress C2 = new TreeAddress(12);
    private static final TreeAddress R = new TreeAddress(90);

    @Test
    void aNewOneIsAStableNonLeaderWithNothingAroundIt() {
        FixedTopology t = new FixedTopology(SELF);
        assertEquals(SELF, t.self());
        assertEquals(NodeState.STABLE, t.state());
        assertFalse(t.leader());
        assertEquals(1, t.version());
        assertEquals(Set.of(), t.neighbours());
        assertNull(t.parent(R));
        assertEquals(List.of(), t.children(R));
    }

    @Test
    void methodsReturnANewTopologyAndLeaveTheOldOneAsItWas() {
        FixedTopology empty = new FixedTopology(SELF);
        FixedTopology t = empty.neighbour(P).tree(R, P, C1).otherTrees(P).leader(true).version(7);
        assertEquals(Set.of(), empty.neighbours());
        assertNull(empty.parent(R));
        assertFalse(empty.leader());
        assertEquals(1, empty.version());
        assertTrue(t.leader());
        assertEquals(7, t.version());
        assertThrows(UnsupportedOperationException.class, () -> t.neighbours().add(C2));
        assertThrows(UnsupportedOperationException.class, () -> t.children(R).add(C2));
    }

    @Test
    void treeMembersBecomeNeighboursAtTheirMemoryAddressUnlessAlreadyKnownOrSelf() {
        SubstrateAddress at = SubstrateAddress.udp("127.0.0.1", 9);
        FixedTopology t = new FixedTopology(SELF).neighbour(C2, null).neighbour(P, at)
                .tree(R, P, C1, C2).tree(C1, C1, SELF);
        assertEquals(List.of(C2, P, C1), List.copyOf(t.neighbours()));
        assertEquals(at, t.substrateAddress(P));
        assertEquals(FixedTopology.addressOf(C1), t.substrateAddress(C1));
        assertNull(t.substrateAddress(C2));
        assertTrue(t.isNeighbour(C2));
        assertFalse(t.isNeighbour(SELF));
        assertNull(t.substrateAddress(R));
    }

    @Test
    void aGivenTreeWinsOverOtherTreesAndSelfHasNoParent() {
        FixedTopology t = new FixedTopology(SELF).tree(R, null, C1).tree(C1, C1, P).otherTrees(P, C1, C2);
        assertNull(t.parent(R));
        assertEquals(List.of(C1), t.children(R));
        assertEquals(C1, t.parent(C1));
        assertEquals(C1, t.nextHop(C1));
        assertEquals(List.of(P), t.children(C1));
        assertEquals(P, t.parent(new TreeAddress(77)));
        assertEquals(List.of(C1, C2), t.children(new TreeAddress(77)));
        assertNull(t.parent(SELF));
        assertEquals(List.of(C1, C2), t.children(SELF));
    }
}
