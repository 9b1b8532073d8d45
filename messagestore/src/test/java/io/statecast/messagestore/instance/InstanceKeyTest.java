package io.statecast.messagestore.instance;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.Scope;
import io.statecast.messagestore.support.Messages;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstanceKeyTest {

    @Test
    void shouldKeyByScope() {
        var m = Messages.payload(5, 77, 3, 4, "x");
        assertEquals(InstanceKey.ofMessage(5, 77), InstanceKey.of(Scope.MESSAGE, m));
        assertEquals(InstanceKey.ofFlow(5, a(3)), InstanceKey.of(Scope.FLOW, m));
        assertEquals(Scope.FLOW, InstanceKey.of(Scope.FLOW, m).scope());
        assertNotEquals(InstanceKey.ofMessage(5, 77), InstanceKey.ofMessage(6, 77));
        var plain = new io.statecast.overlay.message.OverlayMessage(io.statecast.overlay.message.DeliveryMode.FLOOD, 1,
                a(1), null, a(1), null, List.of());
        assertThrows(IllegalArgumentException.class, () -> InstanceKey.of(Scope.MESSAGE, plain));
    }

    @Test
    void shouldSpreadConsecutiveIdsOverShards() {
        int shards = 4;
        int[] counts = new int[shards];
        for (long id = 0; id < 4000; id++) {
            counts[Math.floorMod(InstanceKey.ofMessage(1, id).spread(), shards)]++;
        }
        for (int c : counts) {
            assertTrue(c > 850 && c < 1150, java.util.Arrays.toString(counts));
        }
    }
}
