package io.statecast.overlay.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileErrorsTest {

    @TempDir
    Path dir;

    @Test
    void shouldNameTheCauseWithoutThePath() {
        assertEquals("no such file", FileErrors.describe(new NoSuchFileException("/x/y")));
        assertEquals("permission denied", FileErrors.describe(new AccessDeniedException("/x/y")));
        assertEquals("file name too long", FileErrors.describe(new FileSystemException("/x", null, "File name too long")));
        assertEquals("disk on fire", FileErrors.describe(new IOException("disk on fire")));
        assertEquals("IOException", FileErrors.describe(new IOException()));
    }

    @Test
    void shouldDescribeWhatReadingARealMissingFileOrDirectoryThrows() throws IOException {
        IOException missing = readFails(dir.resolve("absent.yaml"));
        assertEquals("no such file", FileErrors.describe(missing));
        IOException directory = readFails(dir);
        assertEquals("is a directory", FileErrors.describe(directory));
    }

    @Test
    void shouldRefuseMissingFilesAndDirectoriesUpFront() throws IOException {
        Path file = Files.writeString(dir.resolve("ok.txt"), "x");
        assertEquals(Optional.empty(), FileErrors.unreadable(file));
        assertEquals(Optional.of("no such file"), FileErrors.unreadable(dir.resolve("nope")));
        assertEquals(Optional.of("is a directory"), FileErrors.unreadable(dir));
    }

    private static IOException readFails(Path p) {
        try (InputStream in = Files.newInputStream(p)) {
            in.readAllBytes();
        } catch (IOException e) {
            return e;
        }
        assertTrue(false, p + " was readable");
        return null;
    }
}
