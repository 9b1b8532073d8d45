package io.statecast.messagestore.deploy.http;

import java.io.IOException;
import java.net.URI;

/** A server of specs answered with a status other than 2xx; callers tell 404 (absent) from failures. */
public final class HttpStatusException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int status;

    /** {@code uri} answered {@code status}. */
    public HttpStatusException(URI uri, int status) {
        super(uri + " answered HTTP status " + status);
        this.status = status;
    }

    /** The HTTP status code. */
    public int status() {
        return status;
    }
}
