package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code overlay.security} section: defaults, the key file, and errors that name the field. */
class SecurityConfigTest {

    @TempDir
    Path dir;

    private static String secret(int bytes) {
        byte[] b = new byte[bytes];
        Arrays.fill(b, (byte) 7);
        return Base64.getEncoder().encodeToString(b);
    }

    @Test
    void shouldDefaultToNoAuthenticationWithoutAKeyFile() throws Exception {
        OverlayConfig c = OverlayConfig.parse("overlay: {id: x}");
        assertEquals(OverlayConfig.Security.Mode.NONE, c.security().mode());
        assertNull(c.security().keyFile());
        assertEquals(OverlayConfig.Security.DEFAULT_RELOAD_MS, c.security().reloadMs());
    }

    @Test
    void shouldDefaultToMacWithAKeyFileResolvedAgainstTheConfigurationsDirectory() throws Exception {
        Files.writeString(dir.resolve("overlay.key"), "4 " + secret(32) + "\n");
        Path yaml = dir.resolve("node.yaml");
        Files.writeString(yaml, "overlay:\n  id: x\n  security:\n    keyFile: overlay.key\n    reloadMs: 250\n");
        OverlayConfig c = OverlayConfig.load(yaml);
        assertEquals(OverlayConfig.Security.Mode.MAC, c.security().mode());
        assertEquals(dir.resolve("overlay.key").toAbsolutePath(), c.security().keyFile());
        assertEquals(250, c.security().reloadMs());
        assertEquals(4, c.security().loadKeys().sending().id());
        Path json = dir.resolve("node.json");
        Files.writeString(json, "{\"overlay\": {\"id\": \"x\", \"security\": {\"keyFile\": \"overlay.key\", \"mode\": \"MAC\"}}}");
        assertEquals(OverlayConfig.Security.Mode.MAC, OverlayConfig.load(json).security().mode());
    }

    @Test
    void shouldRefuseBadKeyFilesAndCombinationsNamingTheField() throws Exception {
        Path shortKey = dir.resolve("short.key");
        Files.writeString(shortKey, "1 " + secret(16) + "\n");
        Path garbage = dir.resolve("garbage.key");
        Files.writeString(garbage, "not a key file\n");
        assertRefused("overlay.security.keyFile", "keyFile: " + shortKey, "key 1 has 16 bytes; must be 32..64");
        assertRefused("overlay.security.keyFile", "keyFile: " + garbage, "a key line is '<id> <base64 secret>'");
        assertRefused("overlay.security.keyFile", "keyFile: " + dir.resolve("missing.key"), "cannot read: no such file");
        assertRefused("overlay.security.keyFile", "mode: mac", "overlay.security.keyFile is required for security.mode=mac");
        assertRefused("overlay.security.mode", "{mode: none, keyFile: " + shortKey + "}", "overlay.security.mode=none but");
        assertRefused("overlay.security.mode", "mode: sometimes", "expected one of none, mac");
        assertRefused("overlay.security.reloadMs", "{mode: none, reloadMs: -1}", "must be within 0..3600000");
        assertRefused("overlay.security.size", "size: 3", "unknown field");

    }

    private static void assertRefused(String field, String section, String says) {
        String body = section.startsWith("{") ? section : "{" + section + "}";
        OverlayConfigException e = assertThrows(OverlayConfigException.class,
                () -> OverlayConfig.parse("overlay: {id: x, security: " + body + "}"));
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.getMessage().contains(says), () -> e.getMessage() + " does not say " + says);
    }
}
