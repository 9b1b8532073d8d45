package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One ServiceSpec, parsed once, drives executors on two threads at once. A light smoke test of
 * the sharing contract (the getPaths pre-fill makes targetless transitions safe); the exhaustive
 * race measurement lives in ENGINE-NOTES.
 */
class ServiceSpecConcurrencyTest {

    private static final int LIFECYCLES_PER_THREAD = Boolean.getBoolean("statecast.soak") ? 20_000 : 400;

    @Test
    void shouldRunInstancesOfOneSpecOnTwoThreadsAtOnce() throws Exception {
        ServiceSpec spec;
        try (SpecLoader loader = new SpecLoader()) {
            spec = loader.load(TestResources.bytes("specs/blueprint-h2h.scxml"), "h2h");
        }
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        CyclicBarrier start = new CyclicBarrier(2);
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            Random random = new Random(seed + t);
            threads[t] = new Thread(() -> {
                try {
                    start.await(30, TimeUnit.SECONDS);
                    for (int i = 0; i < LIFECYCLES_PER_THREAD && failures.isEmpty(); i++) {
                        runOne(spec, random, failures);
                    }
                } catch (Exception e) {
                    failures.add(e.toString());
                }
            }, "spec-smoke-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.MINUTES.toMillis(2));
            assertTrue(!t.isAlive(), t.getName() + " did not finish (seed " + seed + ")");
        }
        assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures);
        assertEquals(0, spec.engineErrors(), "seed " + seed);
    }

    private static void runOne(ServiceSpec spec, Random random, Queue<String> failures) throws Exception {
        EngineDriver d = new EngineDriver(spec);
        d.fire("payloadmessage");
        int retries = random.nextInt(4);
        for (int r = 0; r < retries; r++) {
            d.fire("acktimeout");
            d.fire("h2hackreqmessage");
        }
        d.fire("allh2hackmessagesreceived");
        List<String> expected = new java.util.ArrayList<>(List.of("setTimer", "sendControlMessage", "toApplication",
                "updateNodeInfo", "setTimer", "setTimer"));
        for (int r = 0; r < retries; r++) {
            expected.addAll(List.of("sendControlMessage", "setTimer", "sendControlMessage"));
        }
        expected.addAll(List.of("cancelTimer", "cancelTimer", "setTimer"));
        List<String> actual = d.drain();
        if (!actual.equals(expected) || !d.states().equals(Set.of("done"))) {
            failures.add("retries=" + retries + " states=" + d.states() + " actions=" + actual);
        }
    }
}
