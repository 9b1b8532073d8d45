package io.statecast.messagestore.deploy.http;

import java.io.IOException;
import java.net.URI;

/** A server of specs answered with a status other than 2xx; callers tell 404 (absent) from failures. */
public final class HttpStatusException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final transient byte[] body;

    /** {@code uri} answered {@code status}. */
    public HttpStatusException(URI uri, int status) {
        this(uri, status, new byte[0]);
    }

    /** {@code uri} answered {@code status} with {@code body} (read within the exchange's bound). */
    public HttpStatusException(URI uri, int status, byte[] body) {
        super(uri + " answered HTTP status " + status);
        this.status = status;
        this.body = body.clone();
    }

    /** The HTTP status code. */
    public int status() {
        return status;
    }

    /** The body of the answer, for a server's own error document; empty if none was kept. */
    public byte[] body() {
        return body == null ? new byte[0] : body.clone();
    }
}
