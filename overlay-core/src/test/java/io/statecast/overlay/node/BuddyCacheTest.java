package io.statecast.overlay.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.SubstrateAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuddyCacheTest {

    private static SubstrateAddress a(String name) {
        return SubstrateAddress.mem(name);
    }

    @Test
    void keepsTheMostRecentAddressesUpToItsCapacity() {
        BuddyCache c = new BuddyCache(2);
        c.remember(a("x"));
        c.remember(a("y"));
        c.remember(a("x")); // refreshed: y is now the least recent
        c.remember(a("z"));
        assertEquals(List.of(a("x"), a("z")), List.copyOf(c.addresses()));
    }

    @Test
    void zeroCapacityAndNullRememberNothing() {
        BuddyCache none = new BuddyCache(0);
        none.remember(a("x"));
        assertTrue(none.isEmpty());
        BuddyCache some = new BuddyCache(3);
        some.remember(null);
        assertTrue(some.isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new BuddyCache(-1));
        assertThrows(UnsupportedOperationException.class, () -> some.addresses().add(a("y")));
    }
}
