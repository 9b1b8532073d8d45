package io.statecast.overlay.metrics;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A minimal HTTP/1.1 server for Prometheus: {@code GET /metrics} (or {@code HEAD}) answers the
 * current text exposition; any other path is 404, any other method on {@code /metrics} is 405.
 * Every request is bounded: a request line of at most {@value #MAX_LINE_BYTES} bytes, headers of
 * at most {@value #MAX_HEADER_BYTES}, a body of at most {@value #MAX_BODY_BYTES} (else 414, 431 or
 * 413), {@value #CONNECTION_SECONDS} s for the whole exchange (else the connection is closed), at most
 * {@value #MAX_CONNECTIONS} connections at once (more are closed on accept). One request per
 * connection. One event-loop thread, a daemon.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    /** The only path served. */
    public static final String PATH = "/metrics";
    /** The Prometheus text format's content type. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** Longest request line. */
    public static final int MAX_LINE_BYTES = 4096;
    /** Largest header block. */
    public static final int MAX_HEADER_BYTES = 8192;
    /** Largest request body (a scrape has none). */
    public static final int MAX_BODY_BYTES = 1024;
    /** Longest a connection may stay open (request and response) before it is closed. */
    public static final int CONNECTION_SECONDS = 10;
    /** Most connections open at once. */
    public static final int MAX_CONNECTIONS = 16;

    private final EventLoopGroup group;
    private final Channel server;
    private final InetSocketAddress address;

    private MetricsEndpoint(EventLoopGroup group, Channel server) {
        this.group = group;
        this.server = server;
        this.address = (InetSocketAddress) server.localAddress();
    }

    /**
     * Binds {@code where} (an unresolved address is resolved here) and serves {@code body}.
     *
     * @throws IOException if the address cannot be resolved or bound
     */
    public static MetricsEndpoint start(InetSocketAddress where, Supplier<String> body) throws IOException {
        return start(where, body, TimeUnit.SECONDS.toMillis(CONNECTION_SECONDS));
    }

    /** As {@link #start(InetSocketAddress, Supplier)} with another connection time limit (tests). */
    static MetricsEndpoint start(InetSocketAddress where, Supplier<String> body, long connectionMillis)
            throws IOException {
        InetSocketAddress bind = where.isUnresolved() ? new InetSocketAddress(where.getHostString(), where.getPort()) : where;
        if (bind.isUnresolved()) {
            throw new IOException("metrics endpoint: cannot resolve host " + where.getHostString());
        }
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("statecast-metrics", true));
        AtomicInteger open = new AtomicInteger();
        try {
            Channel ch = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, MAX_CONNECTIONS)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel c) {
                            if (open.incrementAndGet() > MAX_CONNECTIONS) {
                                open.decrementAndGet();
                                c.close();
                                return;
                            }
                            // a whole connection, not just each read, is bounded in time (no slow drip)
                            var deadline = c.eventLoop().schedule(() -> {
                                c.close();
                            }, connectionMillis, TimeUnit.MILLISECONDS);
                            c.closeFuture().addListener(f -> {
                                open.decrementAndGet();
                                deadline.cancel(false);
                            });
                            c.pipeline().addLast(new HttpServerCodec(MAX_LINE_BYTES, MAX_HEADER_BYTES, MAX_BODY_BYTES),
                                    new BoundedAggregator(), new Handler(body));
                        }
                    }).bind(bind).syncUninterruptibly().channel();
            MetricsEndpoint e = new MetricsEndpoint(group, ch);
            LOG.info("metrics at http://{}:{}{}", e.address.getHostString(), e.address.getPort(), PATH);
            return e;
        } catch (Exception e) { // Netty rethrows the bind's IOException undeclared
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IOException("metrics endpoint: cannot bind " + where + ": " + e.getMessage(), e);
        }
    }

    /** The bound address (port 0 resolved). */
    public InetSocketAddress address() {
        return address;
    }

    /** Stops listening, closes the connections and the thread. Idempotent. */
    @Override
    public void close() {
        server.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** Aggregates a request's body up to {@value #MAX_BODY_BYTES}; a larger one gets 413 and a close. */
    private static final class BoundedAggregator extends HttpObjectAggregator {
        BoundedAggregator() {
            super(MAX_BODY_BYTES);
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            Handler.reply(ctx, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "request too large\n", false);
        }
    }

    /** Answers one request, then closes the connection. */
    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Supplier<String> body;

        Handler(Supplier<String> body) {
            this.body = body;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            if (req.decoderResult().isFailure()) {
                Throwable cause = req.decoderResult().cause();
                HttpResponseStatus status = HttpResponseStatus.BAD_REQUEST;
                if (cause instanceof TooLongHttpHeaderException) {
                    status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
                } else if (cause instanceof TooLongFrameException) {
                    status = HttpResponseStatus.REQUEST_URI_TOO_LONG;
                }
                reply(ctx, status, status.reasonPhrase() + "\n", false);
                return;
            }
            String path = new QueryStringDecoder(req.uri()).path();
            if (!PATH.equals(path)) {
                reply(ctx, HttpResponseStatus.NOT_FOUND, "not found: only " + PATH + " is served\n", false);
                return;
            }
            boolean head = HttpMethod.HEAD.equals(req.method());
            if (!HttpMethod.GET.equals(req.method()) && !head) {
                FullHttpResponse r = response(HttpResponseStatus.METHOD_NOT_ALLOWED, "method not allowed: use GET\n", false);
                r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
                send(ctx, r);
                return;
            }
            String text;
            try {
                text = body.get();
            } catch (RuntimeException e) {
                LOG.warn("metrics scrape failed: {}", e.toString());
                reply(ctx, HttpResponseStatus.INTERNAL_SERVER_ERROR, "scrape failed\n", false);
                return;
            }
            FullHttpResponse r = response(HttpResponseStatus.OK, text, head);
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
            send(ctx, r);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("metrics connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }

        private static void reply(ChannelHandlerContext ctx, HttpResponseStatus status, String text, boolean head) {
            send(ctx, response(status, text, head));
        }

        private static FullHttpResponse response(HttpResponseStatus status, String text, boolean head) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
            r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            return r;
        }

        private static void send(ChannelHandlerContext ctx, FullHttpResponse r) {
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
