package io.statecast.messagestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.overlay.testkit.Await;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.Origin;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The two shard runners run the same agent: a seeded workload on a virtual clock — the local
 * application's messages that retransmit until acknowledged, acknowledgements, messages of other
 * nodes to deliver and acknowledge, timers and lingering instances — gives the same primitive
 * calls, in the same order at the same virtual instants, whether the shard runs as tasks of the
 * clock ({@link TaskRunner}, clock threading) or on a thread of its own ({@link ThreadRunner},
 * dedicated threading), until every instance has ended. The test feeds one input at a time and lets the shard settle before the
 * next one and before each millisecond of virtual time; the dedicated thread settles when its
 * runner is idle with nothing queued.
 */
class ShardRunnerEquivalenceTest {

    private static final int SERVICE = 42;
    private static final int STEPS_MS = 600;
    private static final int QUIET_MS = 400;

    @Test
    void shouldDeliverAndSendTheSameOnADedicatedThreadAsOnTheVirtualClock() throws Exception {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        String why = "seed " + seed + " (rerun with -Dstatecast.seed=" + seed + ")";
        List<String> onClock = run(seed, MessageStoreConfig.Threading.CLOCK);
        List<String> onThread = run(seed, MessageStoreConfig.Threading.DEDICATED);
        assertTrue(onClock.stream().filter(c -> c.contains("toApplication")).count() > 10,
                "the workload delivers: " + why + "\n" + onClock);
        assertTrue(onClock.stream().filter(c -> c.contains("sendData")).count() > 20,
                "the workload retransmits: " + why + "\n" + onClock);
        assertEquals(String.join("\n", onClock), String.join("\n", onThread), why);
    }

    /** The primitive calls of the seeded workload with {@code threading}, each with its virtual instant. */
    private static List<String> run(long seed, MessageStoreConfig.Threading threading) throws Exception {
        VirtualTimerService clock = new VirtualTimerService();
        RecordingOverlay overlay = new RecordingOverlay(Messages.a(9), clock,
                new FixedTopology(Messages.a(9)).tree(Messages.a(1), Messages.a(5)));
        MessageStore store = new MessageStore(MessageStoreConfig.defaults().withShards(1).withWarmStart(false)
                .withThreading(threading), Specs.loader(), SpecResolver.defaults());
        List<String> calls = new ArrayList<>();
        try {
            store.open(overlay);
            store.install(Specs.load("specs/ack-service.scxml").withParameters(Map.of("Retry", "20", "Linger", "50")));
            assertEquals(threading, store.threading());
            Runnable settle = () -> {
                clock.advanceBy(Duration.ZERO); // clock threading: the shard's tasks due now
                Await.until(store::shardsIdle, 30, () -> "the shard settles with " + threading);
                for (RecordingOverlay.Call c : overlay.drain()) {
                    calls.add(TimeUnit.NANOSECONDS.toMillis(clock.nanoTime()) + " ms " + describe(c));
                }
            };
            SplittableRandom random = new SplittableRandom(seed);
            List<long[]> sent = new ArrayList<>(); // {MessageID, destination}
            long nextId = 1;
            for (int ms = 0; ms < STEPS_MS + QUIET_MS; ms++) {
                if (ms < STEPS_MS) {
                    double r = random.nextDouble();
                    if (r < 0.15) { // the local application sends to node 1 or 5
                        long dest = random.nextBoolean() ? 1 : 5;
                        long id = nextId++;
                        sent.add(new long[] {id, dest});
                        store.receiveMessage(Messages.unicastPayload(SERVICE, id, 9, dest, 9, "own " + id),
                                Arrival.FROM_APPLICATION);
                    } else if (r < 0.30) { // a message of node 1 or 5 for this node, maybe a duplicate
                        long src = random.nextBoolean() ? 1 : 5;
                        long id = 1 + random.nextInt(40);
                        store.receiveMessage(Messages.unicastPayload(SERVICE, id, src, 9, src, "theirs " + id),
                                Arrival.DELIVERED);
                    } else if (r < 0.42 && !sent.isEmpty()) { // an ACK, maybe late or repeated
                        long[] m = sent.get(random.nextInt(sent.size()));
                        store.receiveMessage(Origin.attach(Messages.control(SERVICE, 2, m[0], m[1], 9, m[1]),
                                Messages.a(9)), Arrival.DELIVERED);
                    }
                    settle.run();
                } else if (ms == STEPS_MS) { // every own message acknowledged at last: everything ends
                    for (long[] m : sent) {
                        store.receiveMessage(Origin.attach(Messages.control(SERVICE, 2, m[0], m[1], 9, m[1]),
                                Messages.a(9)), Arrival.DELIVERED);
                        settle.run();
                    }
                }
                clock.advanceBy(1, TimeUnit.MILLISECONDS);
                settle.run();
            }
            assertEquals(0, store.liveInstances(), "every instance ended: " + store.metrics().format());
        } finally {
            store.close();
        }
        return calls;
    }

    private static String describe(RecordingOverlay.Call call) {
        if (call instanceof RecordingOverlay.SendData d) {
            return "sendData id=" + d.messageId() + " " + new String(d.payload(), StandardCharsets.UTF_8) + " " + d.route();
        }
        if (call instanceof RecordingOverlay.SendControl c) {
            return "sendControl type=" + c.messageType() + " id=" + c.messageId() + " " + c.route();
        }
        if (call instanceof RecordingOverlay.ToApplication t) {
            return "toApplication " + describe(t.message());
        }
        return "forward " + describe(((RecordingOverlay.Forward) call).message());
    }

    private static String describe(OverlayMessage m) {
        byte[] p = m.payload();
        return "from " + m.source() + " id=" + m.fsm().messageId()
                + (p == null ? "" : " " + new String(p, StandardCharsets.UTF_8));
    }
}
