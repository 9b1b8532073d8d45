package io.statecast.messagestore.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TombstonesTest {

    private static InstanceKey k(long id) {
        return InstanceKey.ofMessage(1, id);
    }

    @Test
    void shouldRememberForTheLifetimeOnly() {
        Tombstones t = new Tombstones(10, 100);
        t.add(k(1), 0);
        assertTrue(t.contains(k(1), 99));
        assertFalse(t.contains(k(1), 100));
        assertEquals(0, t.size(), "an expired key is forgotten when asked about");
        t.add(k(2), 0);
        t.add(k(3), 50);
        t.purge(120);
        assertEquals(1, t.size());
        assertTrue(t.contains(k(3), 120));
    }

    @Test
    void shouldForgetTheOldestWhenFullAndCountIt() {
        Tombstones t = new Tombstones(2, 1_000);
        t.add(k(1), 0);
        t.add(k(2), 1);
        t.add(k(3), 2);
        assertFalse(t.contains(k(1), 3));
        assertTrue(t.contains(k(2), 3));
        assertTrue(t.contains(k(3), 3));
        assertEquals(1, t.evicted());
        Tombstones none = new Tombstones(0, 1);
        none.add(k(1), 0);
        assertFalse(none.contains(k(1), 0));
    }
}
