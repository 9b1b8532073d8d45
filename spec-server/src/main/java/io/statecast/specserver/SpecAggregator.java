package io.statecast.specserver;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Netty's aggregator, bounded by {@link SpecServerLimits#maxSpecBytes()}, answering an oversized
 * body (one without {@code Content-Length}, typically chunked: the gate has already refused the
 * others) with a JSON 413 and always closing the connection (see {@link LingeringClose}), since
 * the rest of the body is unread. Netty stops buffering at the limit, drops the partial body and
 * discards the rest of the message.
 */
final class SpecAggregator extends HttpObjectAggregator {

    private final ServerContext context;

    SpecAggregator(ServerContext context) {
        super(context.limits().maxSpecBytes(), true);
        this.context = context;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        context.metrics().tooLarge.increment();
        FullHttpResponse r = context.responses().error(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                "body exceeds maxSpecBytes=" + context.limits().maxSpecBytes());
        r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        LingeringClose.afterWrite(ctx.writeAndFlush(r));
    }
}
