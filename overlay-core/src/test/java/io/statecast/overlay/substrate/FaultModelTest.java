package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.SubstrateAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FaultModelTest {

    private static final int FRAMES = 100_000;
    private static final SubstrateAddress A = SubstrateAddress.mem("a");
    private static final SubstrateAddress B = SubstrateAddress.mem("b");
    private static final SubstrateAddress C = SubstrateAddress.mem("c");

    private final long seed = Seeds.seed();

    @Test
    void tenPercentLossShouldDropTenPercentWithinOnePoint() {
        FaultModel m = new FaultModel(seed, FaultConfig.loss(0.10));
        int dropped = 0;
        for (int i = 0; i < FRAMES; i++) {
            if (m.decide(A, B).copies() == 0) {
                dropped++;
            }
        }
        FaultStats s = m.stats();
        double rate = dropped / (double) FRAMES;

        assertTrue(Math.abs(rate - 0.10) <= 0.01, "loss rate " + rate + ", seed " + seed);
        assertEquals(FRAMES, s.seen());
        assertEquals(dropped, s.lost());
        assertEquals(FRAMES - dropped, s.delivered());
        assertEquals(rate, s.lossRate(), 1e-12);
    }

    @Test
    void duplicationShouldMatchItsProbabilityAndGiveTwoCopies() {
        FaultModel m = new FaultModel(seed, FaultConfig.loss(0.05).withDuplication(0.05));
        long copies = 0;
        long twice = 0;
        for (int i = 0; i < FRAMES; i++) {
            FaultModel.Fate f = m.decide(A, B);
            copies += f.copies();
            if (f.copies() == 2) {
                twice++;
            }
        }
        FaultStats s = m.stats();

        assertEquals(twice, s.duplicated());
        assertEquals(copies, s.delivered());
        assertEquals(FRAMES - s.lost() + s.duplicated(), s.delivered());
        assertTrue(Math.abs(s.duplicationRate() - 0.05) <= 0.01, "duplication rate " + s.duplicationRate() + ", seed " + seed);
    }

    @Test
    void delayShouldBeFixedPlusUniformJitterAndReorderingAddsExtraDelay() {
        long fixed = TimeUnit.MILLISECONDS.toNanos(10);
        long jitter = TimeUnit.MILLISECONDS.toNanos(5);
        long extra = TimeUnit.MILLISECONDS.toNanos(50);
        FaultModel m = new FaultModel(seed, FaultConfig.NONE
                .withDelay(Duration.ofNanos(fixed), Duration.ofNanos(jitter))
                .withReordering(0.10, Duration.ofNanos(extra)));
        long beyondBase = 0;
        double sumBase = 0;
        long baseCount = 0;
        for (int i = 0; i < FRAMES; i++) {
            long d = m.decide(A, B).delayNanos();
            assertTrue(d >= fixed && d <= fixed + jitter + extra, "delay " + d + ", seed " + seed);
            if (d > fixed + jitter) {
                beyondBase++;
            } else {
                sumBase += d;
                baseCount++;
            }
        }
        FaultStats s = m.stats();

        assertTrue(Math.abs(s.reorderRate() - 0.10) <= 0.01, "reorder rate " + s.reorderRate() + ", seed " + seed);
        assertTrue(beyondBase <= s.reordered(), "only reordered frames exceed the base delay");
        // a reordered frame stays within the base window only if its extra delay is that small: ~10% of them
        assertTrue(beyondBase >= 0.85 * s.reordered(), beyondBase + " of " + s.reordered() + ", seed " + seed);
        double meanBase = sumBase / baseCount;
        assertEquals(fixed + jitter / 2.0, meanBase, TimeUnit.MICROSECONDS.toNanos(100), "mean base delay, seed " + seed);
    }

    @Test
    void sameSeedShouldGiveTheSameFatesAndAnotherSeedOthers() {
        FaultConfig c = FaultConfig.loss(0.2).withDuplication(0.1).withReordering(0.1, Duration.ofMillis(20))
                .withDelay(Duration.ofMillis(1), Duration.ofMillis(3));

        assertEquals(fates(seed, c), fates(seed, c));
        assertNotEquals(fates(seed, c), fates(seed + 1, c));
    }

    private static List<FaultModel.Fate> fates(long seed, FaultConfig c) {
        FaultModel m = new FaultModel(seed, c);
        List<FaultModel.Fate> out = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            out.add(m.decide(i % 2 == 0 ? A : B, C));
        }
        return out;
    }

    @Test
    void blackholedNodeShouldLoseEverythingUntilLifted() {
        FaultModel m = new FaultModel(seed);
        m.blackholeNode(B);

        assertEquals(0, m.decide(A, B).copies());
        assertEquals(0, m.decide(B, C).copies());
        assertEquals(1, m.decide(A, C).copies());
        m.liftNode(B);
        assertEquals(1, m.decide(A, B).copies());
        assertEquals(2, m.stats().blackholed());
    }

    @Test
    void blackholedLinkShouldOnlyAffectThatDirection() {
        FaultModel m = new FaultModel(seed);
        m.blackholeLink(A, B);

        assertEquals(0, m.decide(A, B).copies());
        assertEquals(1, m.decide(B, A).copies());
        m.liftAll();
        assertEquals(1, m.decide(A, B).copies());
    }

    @Test
    void linkConfigurationShouldOverrideTheGlobalOne() {
        FaultModel m = new FaultModel(seed, FaultConfig.loss(1.0));
        m.configureLink(A, B, FaultConfig.NONE);

        assertEquals(1, m.decide(A, B).copies());
        assertEquals(0, m.decide(B, A).copies());
        m.clearLink(A, B);
        assertEquals(0, m.decide(A, B).copies());
    }
}
