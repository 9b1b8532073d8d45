package io.statecast.messagestore.deploy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

/**
 * Reads {@code classpath:} URIs — {@code classpath:io/statecast/services/h2h.scxml} — as resources
 * of a class loader (the services shipped in jars).
 */
public final class ClasspathSpecSource implements SpecSource {

    private final ClassLoader loader;

    /** Reads resources of {@code loader}. */
    public ClasspathSpecSource(ClassLoader loader) {
        this.loader = loader;
    }

    @Override
    public String scheme() {
        return "classpath";
    }

    @Override
    public byte[] read(URI uri, int maxBytes) throws IOException {
        String path = uri.getSchemeSpecificPart();
        while (path.startsWith("/")) {
            path = path.substring(1);
        }
        if (path.isEmpty() || path.contains("..")) {
            throw new IOException(uri + ": a classpath URI names a resource, e.g. classpath:io/statecast/services/x.scxml");
        }
        InputStream in = loader.getResourceAsStream(path);
        if (in == null) {
            throw new FileNotFoundException(uri + ": no such resource on the class path");
        }
        try (in) {
            return Sources.readBounded(in, maxBytes, uri.toString());
        }
    }
}
