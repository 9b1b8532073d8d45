package io.statecast.overlay.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OverlayKeysTest {

    static String secret(int fill, int bytes) {
        byte[] b = new byte[bytes];
        java.util.Arrays.fill(b, (byte) fill);
        return Base64.getEncoder().encodeToString(b);
    }

    @Test
    void shouldReadOneOrTwoKeysTheFirstSending(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("overlay.key");
        Files.writeString(f, "# comment\n\n7 " + secret(1, 32) + "\r\n  6\t" + secret(2, 64) + "  \n");
        OverlayKeys keys = OverlayKeys.read(f);
        assertEquals(7, keys.sending().id());
        assertEquals(6, keys.byId(6).id());
        assertEquals(null, keys.byId(5));
        assertTrue(keys.sameAs(OverlayKeys.read(f)));
        assertFalse(keys.sameAs(OverlayKeys.parse("7 " + secret(1, 32), "x")));
        assertFalse(keys.toString().contains(secret(1, 32)), "key material is never printed");
    }

    @Test
    void shouldRefuseMalformedKeyFilesNamingFileLineAndCause() {
        assertError("k: no key", "# nothing\n");
        assertError("k:1: key 3 has 16 bytes; must be 32..64", "3 " + secret(1, 16));
        assertError("k:1: key 3 has 65 bytes", "3 " + secret(1, 65));
        assertError("k:2: key 3: the secret is not standard Base64", "\n3 ***not.base64***");
        assertError("k:1: key id must be a decimal number", "x " + secret(1, 32));
        assertError("k:1: key id 256 must be within 0..255", "256 " + secret(1, 32));
        assertError("k:1: a key line is '<id> <base64 secret>'; found 1 fields", secret(1, 32));
        assertError("k:2: key id 3 appears twice", "3 " + secret(1, 32) + "\n3 " + secret(2, 32));
        assertError("k:3: more than 2 keys", "1 " + secret(1, 32) + "\n2 " + secret(2, 32) + "\n3 " + secret(3, 32));
    }

    private static void assertError(String expected, String text) {
        KeyFileException e = assertThrows(KeyFileException.class, () -> OverlayKeys.parse(text, "k"));
        assertTrue(e.getMessage().startsWith(expected), () -> e.getMessage() + " does not start with " + expected);
    }

    @Test
    void shouldRefuseMissingAndOversizedFiles(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("none.key");
        assertEquals(missing + ": cannot read: no such file",
                assertThrows(KeyFileException.class, () -> OverlayKeys.read(missing)).getMessage());
        Path big = dir.resolve("big.key");
        Files.writeString(big, "# " + "x".repeat(OverlayKeys.MAX_FILE_BYTES) + "\n1 " + secret(1, 32));
        assertTrue(assertThrows(KeyFileException.class, () -> OverlayKeys.read(big)).getMessage()
                .contains("larger than " + OverlayKeys.MAX_FILE_BYTES + " bytes"));
        assertTrue(assertThrows(KeyFileException.class, () -> OverlayKeys.read(dir)).getMessage().startsWith(dir + ": cannot read"));
    }
}
