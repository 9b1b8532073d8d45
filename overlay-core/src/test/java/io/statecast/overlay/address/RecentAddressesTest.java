package io.statecast.overlay.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RecentAddressesTest {

    @Test
    void shouldReturnTheSameObjectForAnAddressSeenBefore() {
        RecentAddresses r = new RecentAddresses();
        LogicalAddress first = r.get(LogicalAddress.Family.TREE, 42);
        assertEquals(new TreeAddress(42), first);
        assertSame(first, r.get(LogicalAddress.Family.TREE, 42));
        DtAddress dt = new DtAddress(-3, 7);
        assertSame(r.get(LogicalAddress.Family.DT, dt.toBits()), r.get(LogicalAddress.Family.DT, dt.toBits()));
        assertEquals(dt, r.get(LogicalAddress.Family.DT, dt.toBits()));
    }

    @Test
    void shouldNotConfuseFamiliesWithTheSameBits() {
        RecentAddresses r = new RecentAddresses();
        long bits = new DtAddress(1, 2).toBits();
        assertEquals(new DtAddress(1, 2), r.get(LogicalAddress.Family.DT, bits));
        assertEquals(new TreeAddress(bits), r.get(LogicalAddress.Family.TREE, bits));
        assertEquals(new DtAddress(1, 2), r.get(LogicalAddress.Family.DT, bits));
    }

    /** One slot: every other address evicts the last; answers stay right. */
    @Test
    void shouldAnswerRightlyWhenAddressesShareASlot() {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random rnd = new Random(seed);
        RecentAddresses r = new RecentAddresses(1);
        for (int i = 0; i < 10_000; i++) {
            long bits = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(3);
            assertEquals(new TreeAddress(bits), r.get(LogicalAddress.Family.TREE, bits), "seed " + seed + ", step " + i);
        }
    }

    @Test
    void shouldRefuseASizeThatIsNotAPowerOfTwoInRange() {
        assertThrows(IllegalArgumentException.class, () -> new RecentAddresses(0));
        assertThrows(IllegalArgumentException.class, () -> new RecentAddresses(3));
        assertThrows(IllegalArgumentException.class, () -> new RecentAddresses(1 << 17));
        assertEquals(1 << 16, new RecentAddresses(1 << 16).slots());
    }

    /** Threads sharing a small table (many collisions) always get the address they asked for. */
    @Test
    void shouldAnswerRightlyUnderConcurrentUse() throws Exception {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        RecentAddresses r = new RecentAddresses(4);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Random rnd = new Random(seed + t);
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 200_000; i++) {
                        long bits = rnd.nextInt(16);
                        if (rnd.nextBoolean()) {
                            assertEquals(new TreeAddress(bits), r.get(LogicalAddress.Family.TREE, bits), "seed " + seed);
                        } else {
                            DtAddress d = new DtAddress((int) bits, -(int) bits);
                            assertEquals(d, r.get(LogicalAddress.Family.DT, d.toBits()), "seed " + seed);
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
