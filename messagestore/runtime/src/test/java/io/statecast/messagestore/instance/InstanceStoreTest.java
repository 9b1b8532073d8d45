package io.statecast.messagestore.instance;

import io.statecast.messagestore.support.Keys;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InstanceStoreTest {

    private final VirtualTimerService clock = new VirtualTimerService();
    private final TestEnvironment env = new TestEnvironment(
            new RecordingOverlay(a(9), clock, new FixedTopology(a(9))), InstanceLimits.DEFAULTS);
    private final ServiceRuntime runtime = new ServiceRuntime(Specs.load("specs/blueprint-h2h.scxml"));

    private ServiceInstance instance(InstanceKey key) {
        return new ServiceInstance(key, runtime, env);
    }

    @Test
    void shouldFindReplaceAndRemoveByKey() {
        InstanceStore store = new InstanceStore();
        ServiceInstance one = instance(Keys.message(1, 7));
        ServiceInstance flow = instance(InstanceKey.ofFlow(1, a(3)));
        store.add(one, 0);
        store.add(flow, 0);
        assertEquals(2, store.size());
        assertSame(one, store.get(Keys.message(1, 7)));
        assertSame(flow, store.get(InstanceKey.ofFlow(1, a(3))));
        assertNull(store.get(Keys.message(2, 7)), "another service's MessageID 7");
        assertNull(store.get(InstanceKey.ofFlow(1, a(4))));
        assertEquals(-1, store.find(Keys.message(1, 8)));

        ServiceInstance again = instance(Keys.message(1, 7));
        store.add(again, 0);
        assertEquals(2, store.size(), "the same key replaces");
        assertFalse(store.remove(one), "no longer the one stored under its key");
        assertTrue(store.remove(again));
        assertFalse(store.remove(again));
        assertEquals(1, store.size());
        assertSame(flow, store.at(store.find(flow.key())));
    }

    @Test
    void shouldRemoveOnlyIdleInstancesIdleLongestFirst() {
        InstanceStore store = new InstanceStore();
        List<ServiceInstance> all = new ArrayList<>();
        for (int id = 0; id < 1000; id++) {
            ServiceInstance i = instance(Keys.message(1, id));
            all.add(i);
            store.add(i, 1_000 + 2 * id);
        }
        // a message reaches 500..999 again much later, and 0 between the arrivals of 50 and 51
        for (int id = 500; id < 1000; id++) {
            store.touch(store.find(all.get(id).key()), 50_000);
        }
        store.touch(store.find(all.get(0).key()), 1_101);

        List<ServiceInstance> idle = store.removeIdle(1_198); // 0..99 (99 arrived at 1,198)
        List<ServiceInstance> expected = new ArrayList<>(all.subList(1, 51));
        expected.add(all.get(0));
        expected.addAll(all.subList(51, 100));
        assertEquals(expected, idle, "idle longest first");
        assertEquals(900, store.size());
        for (ServiceInstance i : all.subList(0, 100)) {
            assertNull(store.get(i.key()));
        }
        for (ServiceInstance i : all.subList(100, 1000)) {
            assertSame(i, store.get(i.key()), "still there after the removals moved entries");
        }
        assertEquals(List.of(), store.removeIdle(1_198));
    }

    @Test
    void shouldAgreeWithAHashMapUnderRandomAddsAndRemovals() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        InstanceStore store = new InstanceStore();
        Map<InstanceKey, ServiceInstance> model = new HashMap<>();
        try {
            long next = 0;
            for (int step = 0; step < 20_000; step++) {
                int op = random.nextInt(10);
                if (op < 6) {
                    // mostly consecutive MessageIDs of a few services, some flows, some far IDs
                    InstanceKey k = switch (random.nextInt(8)) {
                        case 0 -> InstanceKey.ofFlow(random.nextInt(3), a(random.nextInt(50)));
                        case 1 -> Keys.message(random.nextInt(3), random.nextLong());
                        default -> Keys.message(random.nextInt(3), next++);
                    };
                    ServiceInstance i = instance(k);
                    store.add(i, step);
                    model.put(k, i);
                } else if (!model.isEmpty()) {
                    List<ServiceInstance> values = new ArrayList<>(model.values());
                    ServiceInstance victim = values.get(random.nextInt(values.size()));
                    assertTrue(store.remove(victim));
                    model.remove(victim.key());
                }
                if (step % 1000 == 999) {
                    assertEquals(model.size(), store.size());
                    for (Map.Entry<InstanceKey, ServiceInstance> e : model.entrySet()) {
                        assertSame(e.getValue(), store.get(e.getKey()));
                    }
                    assertNull(store.get(Keys.message(7, 1)));
                }
            }
            List<ServiceInstance> all = store.removeIf(i -> true);
            assertEquals(model.size(), all.size());
            assertEquals(0, store.size());
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
    }

    @Test
    void shouldRemoveTheInstancesAPredicateAccepts() {
        InstanceStore store = new InstanceStore();
        for (int id = 0; id < 10; id++) {
            store.add(instance(Keys.message(id % 2, id)), 0);
        }
        List<ServiceInstance> odd = store.removeIf(i -> i.key().serviceId() == 1);
        assertEquals(5, odd.size());
        assertEquals(5, store.size());
        for (int id = 0; id < 10; id++) {
            assertEquals(id % 2 == 0, store.get(Keys.message(id % 2, id)) != null);
        }
    }
}
