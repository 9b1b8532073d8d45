package io.statecast.specserver;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;

/**
 * Decides from a request head alone whether the server will read the request's body, before the
 * aggregator buffers anything: malformed input (400, 414, 431), a request target longer than
 * {@link SpecServerLimits#maxUriBytes()} (414), a write without the bearer token (401), a
 * {@code Content-Length} over {@link SpecServerLimits#maxSpecBytes()} (413). A rejected request
 * gets its response with {@code Connection: close}, the rest of its bytes are dropped unread, and
 * the connection is closed.
 *
 * <p>One request at a time: a request head that arrives before the previous request has been
 * answered (HTTP pipelining) is dropped and the connection is closed after the current response;
 * clients retry on a new connection. This keeps responses in order without buffering.
 */
final class RequestGate extends ChannelInboundHandlerAdapter {

    /** Where the connection is in its one request. */
    private enum State {
        /** Waiting for a request head. */
        IDLE,
        /** A head was admitted; its body is arriving. */
        RECEIVING,
        /** The whole request was passed on; waiting for its response to be written. */
        PROCESSING
    }

    private final ServerContext context;
    private State state = State.IDLE;
    private boolean discarding;
    private boolean closeAfterResponse;

    RequestGate(ServerContext context) {
        this.context = context;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpObject object)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (discarding) {
            ReferenceCountUtil.release(msg);
            return;
        }
        DecoderResult decoded = object.decoderResult();
        if (decoded.isFailure()) {
            ReferenceCountUtil.release(msg);
            context.metrics().malformedRequests.increment();
            context.problemLog().warn(0, "malformed HTTP from {}: {}", ctx.channel().remoteAddress(), printable(String.valueOf(decoded.cause())));
            if (state == State.PROCESSING) {
                // Garbage after a complete request: answer that request, then close.
                discarding = true;
                closeAfterResponse = true;
            } else {
                reject(ctx, statusFor(decoded.cause()), "malformed request: " + printable(String.valueOf(decoded.cause().getMessage())));
            }
            return;
        }
        if (msg instanceof HttpRequest request) {
            if (state == State.PROCESSING) {
                ReferenceCountUtil.release(msg);
                discarding = true;
                closeAfterResponse = true;
                return;
            }
            FullHttpResponse rejection = check(request);
            if (rejection != null) {
                ReferenceCountUtil.release(msg);
                write(ctx, rejection);
                return;
            }
            state = State.RECEIVING;
        }
        if (msg instanceof LastHttpContent) {
            state = State.PROCESSING;
        }
        ctx.fireChannelRead(msg);
    }

    private FullHttpResponse check(HttpRequest request) {
        SpecServerLimits limits = context.limits();
        if (request.uri().length() > limits.maxUriBytes()) {
            context.metrics().malformedRequests.increment();
            return context.responses().error(HttpResponseStatus.REQUEST_URI_TOO_LONG,
                    "request target has " + request.uri().length() + " bytes > maxUriBytes=" + limits.maxUriBytes());
        }
        if (Route.needsAuthorization(request.method())
                && !context.auth().authorized(request.headers().get(HttpHeaderNames.AUTHORIZATION))) {
            context.metrics().unauthorized.increment();
            FullHttpResponse r = context.responses().error(HttpResponseStatus.UNAUTHORIZED,
                    request.method() + " needs Authorization: Bearer <token>");
            r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"statecast-spec-server\"");
            return r;
        }
        long length = HttpUtil.getContentLength(request, -1L);
        if (length > limits.maxSpecBytes()) {
            context.metrics().tooLarge.increment();
            return context.responses().error(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    "body has " + length + " bytes > maxSpecBytes=" + limits.maxSpecBytes());
        }
        return null;
    }

    /**
     * {@code text} (which may quote the client's bytes) fit for a log line or a response: at most
     * 200 characters, anything but printable ASCII shown as {@code ?}, so a client cannot forge
     * log lines or send terminal escapes to whoever reads them.
     */
    static String printable(String text) {
        StringBuilder b = new StringBuilder(Math.min(text.length(), 203));
        for (int i = 0; i < text.length() && i < 200; i++) {
            char c = text.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return text.length() > 200 ? b.append("...").toString() : b.toString();
    }

    private static HttpResponseStatus statusFor(Throwable cause) {
        if (cause instanceof TooLongHttpHeaderException) {
            return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        }
        if (cause instanceof TooLongHttpLineException) {
            return HttpResponseStatus.REQUEST_URI_TOO_LONG;
        }
        return HttpResponseStatus.BAD_REQUEST;
    }

    private void reject(ChannelHandlerContext ctx, HttpResponseStatus status, String message) {
        write(ctx, context.responses().error(status, message));
    }

    private void write(ChannelHandlerContext ctx, FullHttpResponse response) {
        discarding = true;
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        LingeringClose.afterWrite(ctx.writeAndFlush(response));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ResponseSent.INSTANCE) {
            state = State.IDLE;
            if (closeAfterResponse) {
                ctx.close();
            }
        }
        ctx.fireUserEventTriggered(evt);
    }
}
