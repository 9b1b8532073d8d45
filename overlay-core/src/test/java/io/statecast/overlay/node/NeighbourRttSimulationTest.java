package io.statecast.overlay.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.sim.DtSimulation;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.FaultModel;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.VirtualTimerService;
import io.statecast.overlay.testkit.RecordingStore;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Two neighbours on the in-memory substrate with a delay injected on each direction of their link:
 * both converge on the round trip (the sum of the two delays), follow it when it changes, and
 * forget it when the neighbour goes — for the DT and the tree overlay, on a virtual clock.
 */
class NeighbourRttSimulationTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    private static void delay(FaultModel faults, OverlaySocket from, OverlaySocket to, long fixedMs, long jitterMs) {
        faults.configureLink(from.substrateAddresses().get(0), to.substrateAddresses().get(0),
                FaultConfig.NONE.withDelay(Duration.ofMillis(fixedMs), Duration.ofMillis(jitterMs)));
    }

    private static double srttMs(OverlaySocket at, OverlaySocket of) {
        return at.node().rtt(of.localAddress()).map(RttEstimate::srttMillis).orElse(-1.0);
    }

    private static BooleanSupplier near(OverlaySocket a, OverlaySocket b, double lowMs, double highMs) {
        return () -> {
            double ab = srttMs(a, b);
            double ba = srttMs(b, a);
            return ab >= lowMs && ab <= highMs && ba >= lowMs && ba <= highMs;
        };
    }

    private static String describe(OverlaySocket a, OverlaySocket b) {
        return "seed=" + SEED + " rtt a->b " + a.node().rtt(b.localAddress()) + ", b->a " + b.node().rtt(a.localAddress())
                + "; counters a " + a.node().counters();
    }

    @Test
    void shouldMeasureTheInjectedRoundTripBetweenDtNeighbours() {
        try (DtSimulation sim = new DtSimulation(SEED)) {
            OverlaySocket a = sim.add("10,10", List.of());
            OverlaySocket b = sim.add("20,20", List.of(a.substrateAddresses().get(0)));
            RecordingStore probe = new RecordingStore(-1);
            a.installMessageStore(probe);
            FaultModel faults = sim.network().faults();
            delay(faults, a, b, 20, 4);
            delay(faults, b, a, 30, 4);
            sim.joinAll();
            assertTrue(sim.runUntil(() -> a.neighbours().contains(b.localAddress()), Duration.ofSeconds(30),
                    Duration.ofMillis(100)), "neighbours; " + sim.describe());
            // 50 ms each way plus up to 8 ms of jitter: the estimates settle in [50, 58]
            assertTrue(sim.runUntil(near(a, b, 50, 58), Duration.ofSeconds(60), Duration.ofMillis(500)), describe(a, b));
            sim.advance(Duration.ofSeconds(30));
            assertTrue(near(a, b, 50, 58).getAsBoolean(), "stays there; " + describe(a, b));
            RttEstimate e = a.node().rtt(b.localAddress()).orElseThrow();
            assertTrue(e.rttvarMillis() < 8, "variation within the jitter; " + describe(a, b));
            assertEquals(a.node().rtt(b.localAddress()), probe.context().neighbourRtt(b.localAddress()),
                    "the store reads the node's estimate through its context");
            assertTrue(a.node().counters().getOrDefault("rttSamples", 0L) > 10, describe(a, b));

            delay(faults, a, b, 100, 0);
            delay(faults, b, a, 100, 0);
            assertTrue(sim.runUntil(near(a, b, 190, 210), Duration.ofSeconds(120), Duration.ofMillis(500)),
                    "follows a slower link; " + describe(a, b));

            LogicalAddress gone = b.localAddress();
            sim.leave(b);
            assertTrue(sim.runUntil(() -> a.node().rtt(gone).isEmpty(), Duration.ofSeconds(5), Duration.ofMillis(100)),
                    "forgotten with the neighbour; " + describe(a, b));
            assertTrue(probe.context().neighbourRtt(gone).isEmpty());
        }
    }

    @Test
    void shouldMeasureTheInjectedRoundTripBetweenTreeLinks() throws Exception {
        VirtualTimerService clock = new VirtualTimerService();
        MemNetwork net = new MemNetwork(clock, SEED);
        Random random = new Random(SEED);
        OverlaySocket a = tree(net, clock, random, 7, List.of());
        OverlaySocket b = tree(net, clock, random, 9, List.of(SubstrateAddress.mem("t7")));
        try (a; b) {
            delay(net.faults(), a, b, 15, 2);
            delay(net.faults(), b, a, 5, 2);
            a.joinAsync();
            b.joinAsync();
            assertTrue(runUntil(clock, near(a, b, 20, 24), Duration.ofSeconds(60)), describe(a, b));
            clock.advanceBy(Duration.ofSeconds(20));
            assertTrue(near(a, b, 20, 24).getAsBoolean(), "stays there; " + describe(a, b));
            assertTrue(b.node().counters().getOrDefault("rttSamples", 0L) > 5, describe(a, b));
            LogicalAddress gone = b.localAddress();
            b.leave();
            assertTrue(runUntil(clock, () -> a.node().rtt(gone).isEmpty(), Duration.ofSeconds(5)), describe(a, b));
        }
    }

    private static OverlaySocket tree(MemNetwork net, VirtualTimerService clock, Random random, long id,
            List<SubstrateAddress> buddies) throws Exception {
        OverlayConfig c = OverlayConfig.defaults("rtt", NodeType.TREE).withAddress(Long.toString(id))
                .withInterfaces(List.of(SubstrateAddress.mem("t" + id))).withBuddies(buddies);
        return OverlaySocket.builder(c).interfaces(List.of(net.newInterface("t" + id))).timers(clock)
                .random(new Random(random.nextLong())).build();
    }

    private static boolean runUntil(VirtualTimerService clock, BooleanSupplier condition, Duration within) {
        long deadline = clock.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (clock.nanoTime() >= deadline) {
                return false;
            }
            clock.advanceBy(Duration.ofMillis(100));
        }
        return true;
    }
}
