package io.statecast.messagestore.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecResolverTest {

    @Test
    void shouldReadFilesAndClasspathResourcesWithinTheLimit(@TempDir Path dir) throws Exception {
        SpecResolver r = SpecResolver.defaults();
        Path f = dir.resolve("s.scxml");
        Files.write(f, new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, r.read(f.toUri(), 3));
        IOException big = assertThrows(IOException.class, () -> r.read(f.toUri(), 2));
        assertTrue(big.getMessage().contains("larger than the limit of 2 bytes"), big.getMessage());
        assertTrue(r.read(URI.create("classpath:specs/ack-service.scxml"), 1 << 20).length > 100);
        assertThrows(IOException.class, () -> r.read(URI.create("classpath:../etc/passwd"), 100));
        assertThrows(IOException.class, () -> r.read(dir.resolve("missing.scxml").toUri(), 100));
        assertThrows(IOException.class, () -> r.read(dir.toUri(), 100), "a directory is no spec");
        IOException ftp = assertThrows(IOException.class, () -> r.read(URI.create("ftp://127.0.0.1:1/x"), 100));
        assertTrue(ftp.getMessage().contains("known: [classpath, file, http, https]"), ftp.getMessage());
        r.register(new SpecSource() {
            @Override
            public String scheme() {
                return "ftp";
            }

            @Override
            public byte[] read(URI uri, int maxBytes) {
                return new byte[] {9};
            }
        });
        assertArrayEquals(new byte[] {9}, r.read(URI.create("ftp://127.0.0.1:1/x"), 100), "a registered scheme is used");
    }
}
