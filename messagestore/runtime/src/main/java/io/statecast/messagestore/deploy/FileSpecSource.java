package io.statecast.messagestore.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads {@code file:} URIs (absolute paths, e.g. {@code file:/etc/statecast/h2h.scxml}). */
public final class FileSpecSource implements SpecSource {

    @Override
    public String scheme() {
        return "file";
    }

    @Override
    public byte[] read(URI uri, int maxBytes) throws IOException {
        Path p;
        try {
            p = Path.of(uri);
        } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            throw new IOException(uri + " is not a file URI with an absolute path: " + e.getMessage());
        }
        if (!Files.isRegularFile(p)) {
            throw new NoSuchFileException(p + " (from " + uri + ") is not a readable file");
        }
        try (InputStream in = Files.newInputStream(p)) {
            return Sources.readBounded(in, maxBytes, uri.toString());
        }
    }
}
