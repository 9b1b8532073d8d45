package io.statecast.messagestore.deploy;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads spec documents by URI, dispatching on the scheme to a {@link SpecSource}. Thread-safe.
 */
public final class SpecResolver {

    private final Map<String, SpecSource> sources = new ConcurrentHashMap<>();

    /**
     * A resolver for {@code file:}, {@code classpath:} (this class's loader), and {@code http:} and
     * {@code https:} ({@link HttpSpecSource} with its default timeouts).
     */
    public static SpecResolver defaults() {
        SpecResolver r = new SpecResolver();
        r.register(new FileSpecSource());
        r.register(new ClasspathSpecSource(SpecResolver.class.getClassLoader()));
        r.register(new HttpSpecSource("http"));
        r.register(new HttpSpecSource("https"));
        return r;
    }

    /** Adds (or replaces) the source for its scheme. */
    public void register(SpecSource source) {
        sources.put(source.scheme().toLowerCase(Locale.ROOT), Objects.requireNonNull(source, "source"));
    }

    /**
     * Reads the document at {@code uri}.
     *
     * @throws IOException when no source handles its scheme or the source fails
     */
    public byte[] read(URI uri, int maxBytes) throws IOException {
        String scheme = uri.getScheme();
        SpecSource s = scheme == null ? null : sources.get(scheme.toLowerCase(Locale.ROOT));
        if (s == null) {
            throw new IOException(uri + ": no spec source for scheme '" + scheme + "' (known: "
                    + new TreeMap<>(sources).keySet() + ")");
        }
        return s.read(uri, maxBytes);
    }
}
