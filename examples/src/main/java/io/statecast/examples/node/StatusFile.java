package io.statecast.examples.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A file that always holds one complete JSON document describing the node: each version is
 * written to a temporary file beside it and moved over it atomically, so a reader never sees a
 * half-written status.
 */
final class StatusFile {

    private final Path file;
    private final Path temp;

    StatusFile(Path file) {
        Path absolute = file.toAbsolutePath();
        this.file = absolute;
        this.temp = absolute.resolveSibling(absolute.getFileName() + ".tmp");
    }

    Path path() {
        return file;
    }

    void write(String json) throws IOException {
        Files.writeString(temp, json + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
