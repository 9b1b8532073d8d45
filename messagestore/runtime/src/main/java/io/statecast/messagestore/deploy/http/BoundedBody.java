package io.statecast.messagestore.deploy.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The one reader of HTTP response bodies from servers this node does not control: collects at
 * most {@code maxBytes} into a byte array, refuses up front a body whose {@code Content-Length} is
 * over the bound, and cancels the download as soon as one byte too many arrives, so a hostile or
 * broken server cannot make the reader buffer without limit. Time is bounded by the caller
 * ({@link SpecHttpClient} waits for the whole exchange at most its request timeout).
 */
public final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

    private final URI uri;
    private final int maxBytes;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    private BoundedBody(URI uri, int maxBytes) {
        this.uri = uri;
        this.maxBytes = maxBytes;
    }

    /**
     * @param uri      what is read, named in the error
     * @param maxBytes the largest body accepted
     * @param head     the answer is to a {@code HEAD}: its {@code Content-Length} is that of a body
     *                 not sent, so it refuses nothing
     * @return a handler whose body is the bytes, or fails with an {@link IOException}
     *         {@code "<uri> is larger than the limit of <maxBytes> bytes"}
     */
    public static HttpResponse.BodyHandler<byte[]> handler(URI uri, int maxBytes, boolean head) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes=" + maxBytes + " must be >= 0");
        }
        return info -> {
            BoundedBody body = new BoundedBody(uri, maxBytes);
            long declared = info.headers().firstValueAsLong("content-length").orElse(-1L);
            if (declared > maxBytes && !head) {
                body.result.completeExceptionally(new IOException(uri + " is larger than the limit of " + maxBytes
                        + " bytes (Content-Length " + declared + ")"));
            }
            return body;
        };
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (result.isDone()) {
            s.cancel();
        } else {
            s.request(1);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer b : items) {
            int n = b.remaining();
            if ((long) buffer.size() + n > maxBytes) {
                subscription.cancel();
                result.completeExceptionally(new IOException(uri + " is larger than the limit of " + maxBytes + " bytes"));
                return;
            }
            byte[] chunk = new byte[n];
            b.get(chunk);
            buffer.write(chunk, 0, n);
        }
        // one batch at a time: nothing is buffered ahead of the check
        subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
        result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        result.complete(buffer.toByteArray());
    }
}
