package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** XOR parity, length and digest on seeded random payloads. */
class PayloadOpsTest {

    private final long seed = Long.getLong("statecast.seed", System.nanoTime());
    private final Random random = new Random(seed);

    private String where() {
        return "seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + ")";
    }

    private byte[] payload() {
        byte[] b = new byte[switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> PayloadOps.MAX_BYTES - 2;
            default -> random.nextInt(1500);
        }];
        random.nextBytes(b);
        return b;
    }

    @Test
    void shouldRecoverAnyOneMissingPayloadOfAGroupFromItsParity() throws Exception {
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(8);
            List<byte[]> group = new ArrayList<>();
            byte[] repair = new byte[0];
            for (int i = 0; i < n; i++) {
                byte[] p = payload();
                group.add(p);
                repair = PayloadOps.xor(repair, PayloadOps.parity(p));
            }
            int missing = random.nextInt(n);
            byte[] rest = repair;
            for (int i = 0; i < n; i++) {
                if (i != missing) {
                    rest = PayloadOps.xor(rest, PayloadOps.parity(group.get(i)));
                }
            }
            assertArrayEquals(group.get(missing), PayloadOps.recover(rest),
                    where() + ", round " + round + ", " + n + " payloads, missing #" + missing);
        }
    }

    @Test
    void xorParityShouldEqualTheFoldOfXorOverTheParityForms() {
        for (int round = 0; round < 200; round++) {
            int n = random.nextInt(10);
            List<byte[]> group = new ArrayList<>();
            byte[] fold = new byte[0];
            for (int i = 0; i < n; i++) {
                byte[] p = payload();
                group.add(p);
                fold = PayloadOps.xor(fold, PayloadOps.parity(p));
            }
            assertArrayEquals(fold, PayloadOps.xorParity(group), where() + ", round " + round + ", " + n + " payloads");
        }
        List<byte[]> tooMany = new ArrayList<>();
        for (int i = 0; i <= PayloadOps.MAX_XOR_ITEMS; i++) {
            tooMany.add(new byte[1]);
        }
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> PayloadOps.xorParity(tooMany));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("MAX_XOR_ITEMS"), e.getMessage());
    }

    @Test
    void xorPadsTheShorterWithZerosAndIsItsOwnInverse() {
        for (int round = 0; round < 500; round++) {
            byte[] a = payload();
            byte[] b = payload();
            byte[] x = PayloadOps.xor(a, b);
            assertEquals(Math.max(a.length, b.length), x.length, where());
            byte[] back = PayloadOps.xor(x, b);
            assertArrayEquals(a, Arrays.copyOf(back, a.length), where());
            for (int i = a.length; i < back.length; i++) {
                assertEquals(0, back[i], where() + ": padding must be zeros");
            }
            assertArrayEquals(x, PayloadOps.xor(b, a), where() + ": commutative");
        }
    }

    @Test
    void sha256IsTheJdksDigestTruncated() throws Exception {
        for (int round = 0; round < 100; round++) {
            byte[] p = payload();
            int n = 1 + random.nextInt(PayloadOps.SHA256_BYTES);
            byte[] full = MessageDigest.getInstance("SHA-256").digest(p);
            assertArrayEquals(Arrays.copyOf(full, n), PayloadOps.sha256(p, n), where());
        }
    }

    @Test
    void shouldRefuseInputsBeyondTheBoundsNamingThem() {
        byte[] big = new byte[PayloadOps.MAX_BYTES + 1];
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PayloadOps.xor(big, new byte[0]))
                .getMessage().contains("MAX_BYTES=65535"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PayloadOps.parity(new byte[PayloadOps.MAX_BYTES - 1]))
                .getMessage().contains("MAX_BYTES=65535"));
        assertThrows(IllegalArgumentException.class, () -> PayloadOps.recover(new byte[] {0}));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PayloadOps.recover(new byte[] {0, 5, 1}))
                .getMessage().contains("states 5 bytes"));
        assertThrows(IllegalArgumentException.class, () -> PayloadOps.sha256(new byte[1], 0));
        assertThrows(IllegalArgumentException.class, () -> PayloadOps.sha256(new byte[1], 33));
    }
}
