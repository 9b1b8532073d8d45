package io.statecast.specserver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into a byte array, failing (and cancelling the download) as soon as it
 * would exceed a bound, so a hostile or broken server cannot make the client buffer without limit.
 */
final class BoundedBodySubscriber implements HttpResponse.BodySubscriber<byte[]> {

    private final int maxBytes;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    BoundedBodySubscriber(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * @param maxBytes the bound
     * @return a handler that refuses up front a response whose Content-Length is over the bound
     */
    static HttpResponse.BodyHandler<byte[]> handler(int maxBytes) {
        return info -> {
            BoundedBodySubscriber s = new BoundedBodySubscriber(maxBytes);
            long declared = info.headers().firstValueAsLong("content-length").orElse(-1L);
            if (declared > maxBytes) {
                s.result.completeExceptionally(tooLarge(maxBytes, declared));
            }
            return s;
        };
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
            if ((long) out.size() + b.remaining() > maxBytes) {
                subscription.cancel();
                result.completeExceptionally(tooLarge(maxBytes, -1));
                return;
            }
            byte[] chunk = new byte[b.remaining()];
            b.get(chunk);
            out.write(chunk, 0, chunk.length);
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
        result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        result.complete(out.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    private static IOException tooLarge(int max, long declared) {
        return new IOException("response body " + (declared >= 0 ? "of " + declared + " bytes " : "") + "exceeds maxResponseBytes=" + max);
    }
}
