package io.statecast.specserver;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the time a connection may take to deliver one complete request: the clock starts when
 * the connection opens or its previous response has been written, and stops when the last byte of
 * the next request arrives. A slow body gets 408 and the connection is closed; a connection that
 * sends nothing, or trickles a request head, is simply closed. Unlike a read-idle timeout this
 * cannot be defeated by sending one byte at a time.
 *
 * <p>A second, shorter clock ({@link SpecServerLimits#headerTimeout()}) started at the same moment
 * stops when the request head is complete: a client that holds connections open with half-sent
 * heads (slowloris) loses each of them after that time.
 *
 * <p>Not armed while a request is being processed: {@link SpecServerLimits#processingTimeout()}
 * bounds that, in {@link SpecRequestHandler}.
 */
final class RequestTimeoutHandler extends ChannelInboundHandlerAdapter {

    private final ServerContext context;
    private final long timeoutNanos;
    private final long headerTimeoutNanos;
    private ScheduledFuture<?> timer;
    private ScheduledFuture<?> headTimer;
    private boolean headSeen;
    private boolean expired;

    RequestTimeoutHandler(ServerContext context) {
        this.context = context;
        this.timeoutNanos = context.limits().requestTimeout().toNanos();
        this.headerTimeoutNanos = context.limits().headerTimeout().toNanos();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            arm(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        arm(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (expired) {
            ReferenceCountUtil.release(msg); // answered 408: the rest of that request is drained, not processed
            return;
        }
        if (msg instanceof HttpRequest) {
            headSeen = true;
            cancelHead();
        }
        if (msg instanceof LastHttpContent) {
            cancel();
            headSeen = false;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ResponseSent.INSTANCE && ctx.channel().isActive()) {
            arm(ctx);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancel();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel();
    }

    private void arm(ChannelHandlerContext ctx) {
        cancel();
        timer = ctx.executor().schedule(() -> expire(ctx), timeoutNanos, TimeUnit.NANOSECONDS);
        if (headerTimeoutNanos < timeoutNanos) {
            headTimer = ctx.executor().schedule(() -> expireHead(ctx), headerTimeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        cancelHead();
    }

    private void cancelHead() {
        if (headTimer != null) {
            headTimer.cancel(false);
            headTimer = null;
        }
    }

    /** No complete request head in time: nothing to answer, the connection is closed. */
    private void expireHead(ChannelHandlerContext ctx) {
        headTimer = null;
        if (!ctx.channel().isActive() || headSeen || expired) {
            return;
        }
        context.metrics().timeouts.increment();
        context.metrics().headTimeouts.increment();
        expired = true;
        cancel();
        ctx.close();
    }

    private void expire(ChannelHandlerContext ctx) {
        timer = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        context.metrics().timeouts.increment();
        expired = true;
        if (headSeen) {
            FullHttpResponse r = context.responses().error(HttpResponseStatus.REQUEST_TIMEOUT,
                    "request not received completely within " + context.limits().requestTimeout().toMillis() + " ms");
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            LingeringClose.afterWrite(ctx.writeAndFlush(r));
        } else {
            ctx.close();
        }
    }
}
