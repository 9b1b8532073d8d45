package io.statecast.messagestore.deploy;

import java.io.IOException;
import java.net.URI;

/**
 * Where spec documents come from, for one URI scheme. The store ships {@code file:},
 * {@code classpath:}, {@code http:} and {@code https:} ({@link HttpSpecSource}); more schemes are
 * added with {@link SpecResolver#register}.
 */
public interface SpecSource {

    /** The URI scheme this source reads, lower case (e.g. {@code file}). */
    String scheme();

    /**
     * Reads the document at {@code uri}, at most {@code maxBytes} bytes.
     *
     * @throws IOException when it cannot be read or is longer than {@code maxBytes} (the message
     *                     names the URI)
     */
    byte[] read(URI uri, int maxBytes) throws IOException;
}
