package io.statecast.examples.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CheckedPayloadTest {

    @ParameterizedTest
    @CsvSource({"0, 16", "1, 17", "123456789, 200", "9223372036854775807, 65000"})
    void shouldCarryItsSequenceNumber(long seq, int size) {
        byte[] p = CheckedPayload.create(seq, size);

        assertEquals(size, p.length);
        assertEquals(seq, CheckedPayload.check(p));
    }

    @Test
    void shouldDetectEveryFlippedBitAndTruncation() {
        byte[] p = CheckedPayload.create(77, 64);
        for (int bit = 0; bit < p.length * 8; bit++) {
            byte[] q = p.clone();
            q[bit / 8] ^= (byte) (1 << (bit % 8));
            assertEquals(-1, CheckedPayload.check(q), "bit " + bit);
        }
        assertEquals(-1, CheckedPayload.check(Arrays.copyOf(p, 63)));
        assertEquals(-1, CheckedPayload.check(new byte[15]));
        assertEquals(-1, CheckedPayload.check(null));
    }

    @Test
    void shouldRefuseSizesBelowTheMinimumAndNegativeNumbers() {
        assertThrows(IllegalArgumentException.class, () -> CheckedPayload.create(1, 15));
        assertThrows(IllegalArgumentException.class, () -> CheckedPayload.create(-1, 16));
    }
}
