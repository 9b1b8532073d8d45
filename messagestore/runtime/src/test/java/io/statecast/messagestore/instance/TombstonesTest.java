package io.statecast.messagestore.instance;

import io.statecast.messagestore.support.Keys;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TombstonesTest {

    private static InstanceKey k(long id) {
        return Keys.message(1, id);
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
    void shouldForgetExpiredKeysAsNewOnesArriveWithoutAPurge() {
        Tombstones t = new Tombstones(1_000_000, 100);
        // a steady stream: one key per time unit, each remembered for 100 units
        for (int id = 0; id < 10_000; id++) {
            t.add(k(id), id);
            assertTrue(t.size() <= 101, "expired keys pile up: " + t.size() + " at " + id);
        }
        assertEquals(100, t.size(), "9,999 - 100 = 9,899 was the last to expire");
        assertFalse(t.contains(k(9_899), 9_999));
        assertTrue(t.contains(k(9_900), 9_999));
        assertEquals(0, t.evicted(), "forgotten because they expired, not evicted");
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

    @Test
    void shouldRefreshAReAddedKeyAndMoveItToTheBackOfTheEvictionOrder() {
        Tombstones t = new Tombstones(2, 100);
        t.add(k(1), 0);
        t.add(k(2), 10);
        t.add(k(1), 50);
        assertTrue(t.contains(k(1), 120), "the re-add gave the key a new lifetime");
        t.add(k(3), 60);
        assertFalse(t.contains(k(2), 61), "the key not re-added was the oldest");
        assertTrue(t.contains(k(1), 61));
        assertEquals(1, t.evicted());
    }

    @Test
    void shouldRefuseAFlowKeyAndNeverFindOne() {
        Tombstones t = new Tombstones(10, 100);
        InstanceKey flow = InstanceKey.ofFlow(1, a(3));
        assertThrows(IllegalArgumentException.class, () -> t.add(flow, 0));
        assertEquals(0, t.size());
        t.add(k(0), 0);
        assertFalse(t.contains(flow, 1), "a flow key never matches the message key with the same numbers");
    }

    /**
     * The pattern of a running overlay: several sources, each numbering its messages with a
     * counter from a random start, their instances ending interleaved. Consecutive MessageIDs
     * share runs of buckets in the index, so this fills it with long probe runs; every key must
     * still be found until it is evicted, in order, and none after.
     */
    @Test
    void shouldFindEveryKeyOfInterleavedCountingSourcesUntilEvicted() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random rnd = new Random(seed);
        int capacity = 20_000;
        Tombstones t = new Tombstones(capacity, Long.MAX_VALUE / 4);
        long[] next = new long[5];
        for (int s = 0; s < next.length; s++) {
            next[s] = s == 0 ? -12 : rnd.nextLong(); // one counter crosses zero
        }
        int adds = 3 * capacity;
        InstanceKey[] added = new InstanceKey[adds];
        for (int i = 0; i < adds; i++) {
            int source = rnd.nextInt(next.length);
            added[i] = Keys.message(source % 2, next[source]++);
            t.add(added[i], i);
            int earlier = rnd.nextInt(i + 1); // keys are unique: no two counters meet
            assertEquals(i - earlier < capacity, t.contains(added[earlier], i),
                    "seed " + seed + ", add " + i + ": " + added[earlier]);
        }
        assertEquals(capacity, t.size());
        assertEquals(adds - capacity, t.evicted());
        for (int i = 0; i < adds; i++) {
            assertEquals(i >= adds - capacity, t.contains(added[i], adds), "seed " + seed + ": " + added[i]);
        }
    }


    /**
     * Random operations against the map this class replaced: every answer, the size and the
     * eviction count must match. Small capacities keep the ring full of evictions, re-adds and
     * dead slots (compaction); 3000 makes it grow twice past its first length. Pauses in time
     * make lookups find lifetimes over; the end checks that the run did exercise each of these.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 50, 3000})
    void shouldBehaveLikeAnInsertionOrderedMapWithEvictionAndExpiry(int capacity) {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random rnd = new Random(seed);
        long ttl = 5L * Math.max(capacity, 10);
        int[] services = {0, 1, 7, Integer.MAX_VALUE};
        int keySpace = capacity / 2 + 4;
        Tombstones t = new Tombstones(capacity, ttl);
        Model m = new Model(capacity, ttl);
        long now = rnd.nextLong();
        InstanceKey[] recent = new InstanceKey[64];
        int adds = 0;
        int ops = Math.max(20_000, capacity * 24);
        int pauseEvery = ops / 6;
        for (int op = 0; op < ops; op++) {
            String at = "seed " + seed + ", capacity " + capacity + ", op " + op;
            if (op % pauseEvery == pauseEvery - 1) {
                // A pause, then late duplicates of the keys added last; every other pause outlives them.
                now += (op / pauseEvery % 2 == 0 ? ttl : 0) + rnd.nextLong(ttl);
                for (int i = 1; i <= Math.min(3, adds); i++) {
                    InstanceKey late = recent[(adds - i) & (recent.length - 1)];
                    assertEquals(m.contains(late, now), t.contains(late, now), at + ": after a pause, contains " + late);
                }
            }
            now += rnd.nextInt(4 * capacity + 100) == 0 ? rnd.nextLong(2 * ttl) : rnd.nextInt(4);
            long id = rnd.nextInt(50) == 0 ? rnd.nextLong() : rnd.nextInt(keySpace) - 3;
            InstanceKey key = Keys.message(services[rnd.nextInt(services.length)], id);
            int choice = rnd.nextInt(10);
            if (choice < 5) {
                t.add(key, now);
                m.add(key, now);
                recent[adds++ & (recent.length - 1)] = key;
            } else if (choice < 9) {
                if (adds > 0 && rnd.nextBoolean()) {
                    // often a key added lately: hits, and lookups that find a lifetime just over
                    key = recent[rnd.nextInt(Math.min(adds, recent.length))];
                }
                assertEquals(m.contains(key, now), t.contains(key, now), at + ": contains " + key);
            } else {
                t.purge(now);
                m.purge(now);
            }
            assertEquals(m.expiries.size(), t.size(), at + ": size");
            assertEquals(m.evicted, t.evicted(), at + ": evicted");
        }
        // Everything still held must be found, and nothing after its lifetime.
        for (Map.Entry<InstanceKey, Long> e : Map.copyOf(m.expiries).entrySet()) {
            assertTrue(t.contains(e.getKey(), e.getValue() - 1), "seed " + seed + ": held " + e.getKey());
        }
        t.purge(now + 2 * ttl + 1);
        assertEquals(0, t.size(), "seed " + seed + ": purge after every lifetime empties the set");
        if (capacity > 0) {
            String ran = "seed " + seed + ", capacity " + capacity + ": the run exercised ";
            assertTrue(m.evicted > 0, ran + "eviction");
            assertTrue(m.reAdds > 0, ran + "re-adds");
            assertTrue(m.expiredWhenAsked > 0, ran + "expiry on contains");
        }
    }

    @Test
    void shouldNotAllocateInTheSteadyState() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        InstanceKey[] keys = new InstanceKey[4096];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = Keys.message(i % 3, i * 7919L);
        }
        Tombstones t = new Tombstones(1000, 500);
        long now = 0;
        // Grow to the longest ring first; from then on only eviction, expiry and compaction run.
        for (InstanceKey key : keys) {
            t.add(key, now++);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        int found = 0;
        for (int i = 0; i < 200_000; i++) {
            InstanceKey key = keys[(i * 31) & (keys.length - 1)];
            t.add(key, now);
            if (t.contains(keys[(i * 17) & (keys.length - 1)], now)) {
                found++;
            }
            if ((i & 63) == 0) {
                t.purge(now);
            }
            now += i & 1;
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // The LinkedHashMap this class used to be allocated about 19 MB here (some 96 bytes per add).
        assertTrue(allocated < 64 * 1024, "allocated " + allocated + " bytes in 200,000 steps (" + found + " found)");
    }

    /** The LinkedHashMap that Tombstones used to be. */
    private static final class Model {
        final int capacity;
        final long ttl;
        final LinkedHashMap<InstanceKey, Long> expiries = new LinkedHashMap<>();
        long evicted;
        long reAdds;
        long expiredWhenAsked;

        Model(int capacity, long ttl) {
            this.capacity = capacity;
            this.ttl = ttl;
        }

        void add(InstanceKey key, long now) {
            if (capacity == 0) {
                return;
            }
            // the set forgets up to two keys whose lifetime is over, oldest first, before it adds
            Iterator<Map.Entry<InstanceKey, Long>> oldest = expiries.entrySet().iterator();
            for (int forgotten = 0; forgotten < 2 && oldest.hasNext(); forgotten++) {
                if (now - oldest.next().getValue() < 0) {
                    break;
                }
                oldest.remove();
            }
            if (expiries.remove(key) != null) {
                reAdds++;
            }
            if (expiries.size() >= capacity) {
                Iterator<InstanceKey> it = expiries.keySet().iterator();
                it.next();
                it.remove();
                evicted++;
            }
            expiries.put(key, now + ttl);
        }

        boolean contains(InstanceKey key, long now) {
            Long until = expiries.get(key);
            if (until == null) {
                return false;
            }
            if (now - until >= 0) {
                expiries.remove(key);
                expiredWhenAsked++;
                return false;
            }
            return true;
        }

        void purge(long now) {
            Iterator<Long> it = expiries.values().iterator();
            while (it.hasNext() && now - it.next() >= 0) {
                it.remove();
            }
        }
    }
}
